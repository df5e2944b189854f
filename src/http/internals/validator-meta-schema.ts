/**
 * Relies on: express-openapi-validator building its spec checker at every start (framework/index.js)
 * with `new OpenAPISchemaValidator(...)` read from the CommonJS exports of
 * dist/framework/openapi.schema.validator.js at that moment, a writable property; the class has a
 * constructor(options) and validate(document) that returns `{ errors }`.
 *
 * Why: the class compiles the OpenAPI meta-schema in its constructor, a large part of a start, even
 * with validateApiSpec: false, which then never calls validate(). Deferred, the compilation happens
 * on the first validate() call, that is only when validateApiSpec is on.
 */
import schemaValidatorExports from 'express-openapi-validator/dist/framework/openapi.schema.validator.js';

interface SchemaValidatorModule {
  OpenAPISchemaValidator: new (options: unknown) => { validate(document: unknown): unknown };
}

const counts = { constructed: 0, compiled: 0 };
let installed = false;

export function deferValidatorMetaSchema(): void {
  if (installed) return;
  installed = true;
  const module = schemaValidatorExports as unknown as SchemaValidatorModule;
  const Eager = module.OpenAPISchemaValidator;
  module.OpenAPISchemaValidator = class DeferredOpenAPISchemaValidator {
    private compiled: InstanceType<typeof Eager> | undefined;
    constructor(private readonly options: unknown) {
      counts.constructed++;
    }
    validate(document: unknown): unknown {
      if (!this.compiled) {
        counts.compiled++;
        this.compiled = new Eager(this.options);
      }
      return this.compiled.validate(document);
    }
  };
}

/** How many checkers the validator built, and how many of them compiled the meta-schema: for the guard test. */
export function metaSchemaCounts(): Readonly<typeof counts> {
  return { ...counts };
}
