import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/contract.js';
import { deferValidatorMetaSchema, metaSchemaCounts } from '../../../src/http/internals/validator-meta-schema.js';
import { openApiValidator } from '../../../src/http/middleware/openapi-validator.js';
import { getRequest, outcome } from '../../support/validator-request.js';

const validatorRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
type Checker = new (options: object) => { validate(document: unknown): { errors: unknown[] | null } };

describe("the validator's meta-schema, compiled only when a spec check is asked for", () => {
  deferValidatorMetaSchema();

  it('the validator still exports OpenAPISchemaValidator from dist/framework/openapi.schema.validator.js, with validate() returning { errors }', () => {
    const { OpenAPISchemaValidator } = validatorRequire('./framework/openapi.schema.validator.js') as { OpenAPISchemaValidator: Checker };
    expect(OpenAPISchemaValidator.name).toBe('DeferredOpenAPISchemaValidator');
    const validator = new OpenAPISchemaValidator({ version: '3.1.0', validateApiSpec: true });
    expect(validator.validate({ openapi: '3.1.0', info: { title: 't', version: '1' }, paths: {} }).errors).toEqual([]);
    expect(validator.validate({ openapi: '3.1.0', paths: {} }).errors).not.toEqual([]);
  });

  it('the validator still builds its checker from that export at start, and never calls it with validateApiSpec off', async () => {
    const before = metaSchemaCounts();
    const contract = loadContract();
    const [route] = openApiValidator(contract);
    // The validator loads the spec when it sees its first request.
    await outcome(route, getRequest(`${contract.basePath}/pets`));
    const after = metaSchemaCounts();
    expect(after.constructed).toBe(before.constructed + 1);
    expect(after.compiled).toBe(before.compiled);
  });
});
