import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/contract.js';
import { memoisedRouteCount, memoiseValidatorRouteRegExps } from '../../../src/http/internals/validator-route-cache.js';
import { openApiValidator } from '../../../src/http/middleware/openapi-validator.js';
import { getRequest, outcome } from '../../support/validator-request.js';

// path-to-regexp as express-openapi-validator itself resolves it: the memo only helps if it is on
// this very object (a second copy in node_modules would escape it).
const validatorRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
type PathToRegexp = (path: string, options?: object) => unknown;

describe("the validator's route compilations, memoised", () => {
  memoiseValidatorRouteRegExps();

  it('path-to-regexp is one copy: the one the validator resolves is the one the server patches', () => {
    const serverCopy = createRequire(import.meta.url).resolve('path-to-regexp');
    expect(validatorRequire.resolve('path-to-regexp')).toBe(serverCopy);
  });

  it('path-to-regexp still exports pathToRegexp as a function the validator calls with sensitive and strict', () => {
    const { pathToRegexp } = validatorRequire('path-to-regexp') as { pathToRegexp: PathToRegexp };
    const first = pathToRegexp('/v1/pets/:petId', { sensitive: false, strict: false });
    expect(pathToRegexp('/v1/pets/:petId', { sensitive: false, strict: false })).toBe(first);
    expect(pathToRegexp('/v1/pets/:petId', { sensitive: true, strict: false })).not.toBe(first);
  });

  it("the validator still compiles its routes through path-to-regexp's exports on each lookup", async () => {
    const contract = loadContract();
    const [route] = openApiValidator(contract);
    const before = memoisedRouteCount();
    const req = getRequest(`${contract.basePath}/pets/7`);
    expect(await outcome(route, req)).toBeUndefined();
    expect(req.openapi?.schema?.operationId).toBe('getPet');
    // Its first lookup compiles the spec's routes, through the memo.
    expect(memoisedRouteCount()).toBeGreaterThan(before);
  });
});
