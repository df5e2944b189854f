import { createRequire } from 'node:module';

interface PathToRegexpModule {
  pathToRegexp: (path: unknown, options?: Record<string, unknown>) => unknown;
}

let installed = false;

/**
 * express-openapi-validator 5.6 compiles each route of the spec with path-to-regexp again on every
 * request, to find the request's operation (middlewares/openapi.metadata.js, lookupRoute): a parse
 * and a RegExp build per route per request, the largest part of its cost. The compilation is pure,
 * so the result for a path and options is kept and handed out again. Only calls the validator
 * makes (a string path, `sensitive`/`strict` options) are memoised; anything else goes through.
 */
export function cacheValidatorRouteRegExps(): void {
  if (installed) return;
  installed = true;
  // The copy of path-to-regexp the validator itself loads.
  const validatorRequire = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
  const module = validatorRequire('path-to-regexp') as PathToRegexpModule;
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
