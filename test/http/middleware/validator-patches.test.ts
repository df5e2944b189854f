import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { patchValidator } from '../../../src/http/middleware/validator-patches.js';

// The modules as express-openapi-validator itself resolves them: the patches only help if they
// changed these very objects (a second copy of path-to-regexp in node_modules would escape them).
const validatorRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));

describe('validator patches', () => {
  patchValidator();

  it("memoise the validator's path-to-regexp compilations", () => {
    const { pathToRegexp } = validatorRequire('path-to-regexp') as { pathToRegexp: (path: string, options?: object) => unknown };
    const first = pathToRegexp('/v1/pets/:petId', { sensitive: false, strict: false });
    expect(pathToRegexp('/v1/pets/:petId', { sensitive: false, strict: false })).toBe(first);
    expect(pathToRegexp('/v1/pets/:petId', { sensitive: true, strict: false })).not.toBe(first);
  });

  it("defer the validator's meta-schema compilation to its first use", () => {
    const { OpenAPISchemaValidator } = validatorRequire('./framework/openapi.schema.validator.js') as {
      OpenAPISchemaValidator: new (options: object) => { validate(document: unknown): { errors: unknown[] | null } };
    };
    expect(OpenAPISchemaValidator.name).toBe('DeferredOpenAPISchemaValidator');
    const validator = new OpenAPISchemaValidator({ version: '3.1.0', validateApiSpec: true });
    expect(validator.validate({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} }).errors).toEqual([]);
    expect(validator.validate({ openapi: '3.1.0', paths: {} }).errors).not.toEqual([]);
  });
});
