/**
 * Work done by express-openapi-validator 5.6 that this service never uses, taken out by replacing
 * two of its internals. The package is pinned to an exact version; both patches only memoise or
 * defer, so they change what the validator does for no request.
 */

// The very module objects the validator uses: CommonJS modules, so a default import is their
// module.exports, the same object the validator's own require() returns, unbundled (Node caches a
// module by its file) and in the server bundle (esbuild includes a file once). path-to-regexp is
// the copy the validator resolves (npm ls path-to-regexp: one copy, shared with Express's router).
import pathToRegexpExports from 'path-to-regexp';
import schemaValidatorExports from 'express-openapi-validator/dist/framework/openapi.schema.validator.js';

interface PathToRegexpModule {
  pathToRegexp: (path: unknown, options?: Record<string, unknown>) => unknown;
}

interface SchemaValidatorModule {
  OpenAPISchemaValidator: new (options: unknown) => { validate(document: unknown): unknown };
}

let installed = false;

export function patchValidator(): void {
  if (installed) return;
  installed = true;
  cacheRouteRegExps(pathToRegexpExports as unknown as PathToRegexpModule);
  deferMetaSchemaCompilation(schemaValidatorExports as unknown as SchemaValidatorModule);
}

/**
 * The validator compiles each route of the spec with path-to-regexp again on every request, to find
 * the request's operation (middlewares/openapi.metadata.js, lookupRoute): a parse and a RegExp build
 * per route per request. The compilation is pure, so the result for a path and options is kept.
 * Only calls the validator makes (a string path, `sensitive`/`strict` options) are memoised.
 */
function cacheRouteRegExps(module: PathToRegexpModule): void {
  const compile = module.pathToRegexp;
  const compiled = new Map<string, unknown>();
  module.pathToRegexp = (path, options = {}) => {
    const keys = Object.keys(options);
    if (typeof path !== 'string' || keys.some((key) => key !== 'sensitive' && key !== 'strict')) return compile(path, options);
    const key = `${options['sensitive'] ? 's' : '-'}${options['strict'] ? 's' : '-'}${path}`;
    let result = compiled.get(key);
    if (result === undefined) compiled.set(key, (result = compile(path, options)));
    return result;
  };
}

/**
 * At every start the validator compiles the OpenAPI meta-schema into a validator for the spec
 * (framework/index.js), a large part of a start, even with validateApiSpec: false, which then never calls it. The
 * compilation now happens on the first validate() call, that is only when validateApiSpec is on.
 */
function deferMetaSchemaCompilation(module: SchemaValidatorModule): void {
  const Eager = module.OpenAPISchemaValidator;
  module.OpenAPISchemaValidator = class DeferredOpenAPISchemaValidator {
    private compiled: InstanceType<typeof Eager> | undefined;
    constructor(private readonly options: unknown) {}
    validate(document: unknown): unknown {
      this.compiled ??= new Eager(this.options);
      return this.compiled.validate(document);
    }
  };
}
