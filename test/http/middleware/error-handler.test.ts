import { beforeEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/contract.js';
import { HTTP_METHODS } from '../../../src/contract/spec.js';
import { apiError } from '../../../src/errors/api-error.js';
import { QueryNotWrittenError } from '../../../src/storage/storage.js';
import { backends } from '../../support/backends.js';
import { createTestApi, openTestStorage, type TestApi } from '../../support/test-app.js';

const contract = loadContract();

/** Each path of the spec with each method it does not have, and the methods it has (HEAD wherever GET is). */
const METHOD_NOT_ALLOWED = Object.entries(contract.document.paths).flatMap(([template, item]) => {
  const methods = HTTP_METHODS.filter((method) => method in item).map((method) => method.toUpperCase());
  const allowed = [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].sort();
  const path = `${contract.basePath}${template.replace(/\{[^}]+\}/g, '1')}`;
  return (['delete', 'put', 'patch', 'post'] as const)
    .filter((method) => !(method in item))
    .map((method) => [method, path, allowed] as const);
});

describe.each(backends)('errors and protocol hygiene [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend });
  });

  it.each(['/v1/no-such-thing', '/v1/pets/1/owner', '/v1', '/v2/pets'])('answers 404 route_not_found for %s', async (path) => {
    const res = await t.api.get(path).set(t.auth).expect(404);
    expect(res.body).toEqual({ code: 'route_not_found', status: 404, message: `No operation at GET ${path}.` });
  });

  it.each(METHOD_NOT_ALLOWED)('answers 405 for %s %s, with Allow listing %j', async (method, path, allowed) => {
    const res = await t.api[method](path).set(t.auth).expect(405);
    const allow = res.headers['allow'] as string;
    expect(allow.split(', ').sort()).toEqual(allowed);
    expect(res.body).toEqual({
      code: 'method_not_allowed',
      status: 405,
      message: `${method.toUpperCase()} is not allowed here; use ${allow}.`,
    });
  });

  it('answers a handler that raises not_implemented with 501, naming the operation', async () => {
    const unimplemented = await createTestApi({
      backend,
      handlers: { listPets: () => Promise.reject(apiError('not_implemented', { operation: 'GET /v1/pets' })) },
    });
    // Not through t.api: 501 is no response listPets documents.
    const res = await fetch(`${unimplemented.origin}/v1/pets`, { headers: unimplemented.auth });
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({ code: 'not_implemented', status: 501, message: 'GET /v1/pets is not implemented yet.' });
  });

  it('answers a storage query not written yet with 501, naming the operation', async () => {
    const storage = await openTestStorage(backend);
    const unwritten = await createTestApi({ storage });
    storage.listPets = () => Promise.reject(new QueryNotWrittenError('listPets', 'src/storage/sqlite/operations/list-pets.ts'));
    // Not through t.api: 501 is no response listPets documents.
    const res = await fetch(`${unwritten.origin}/v1/pets`, { headers: unwritten.auth });
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({ code: 'not_implemented', status: 501, message: 'GET /v1/pets is not implemented yet.' });
  });

  it('answers an unexpected failure with a bare 500: no stack, no detail', async () => {
    const storage = await openTestStorage(backend);
    const failing = await createTestApi({ storage });
    storage.listPets = async () => {
      throw new Error('disk on fire at /var/lib/secret.db');
    };
    const res = await failing.api.get('/v1/pets').set(failing.auth).expect(500);
    expect(res.body).toEqual({
      code: 'internal_error',
      status: 500,
      message: 'The service failed to handle the request. Try again later.',
    });
    expect(res.text).not.toMatch(/disk on fire|secret|at .*\.ts/);
  });
});
