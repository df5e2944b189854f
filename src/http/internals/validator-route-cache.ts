/**
 * Relies on: express-openapi-validator compiling each route of the spec again on every request,
 * to find the request's operation, by calling `pathToRegexp` through the CommonJS exports object
 * of path-to-regexp (middlewares/openapi.metadata.js, lookupRoute), a writable property that it
 * reads at each call; and on that path-to-regexp being the copy this module resolves (npm ls
 * path-to-regexp: one copy, shared with Express's router). A default import of a CommonJS module
 * is its module.exports, the very object the validator's require() returns, unbundled (Node caches
 * a module by its file) and in the server bundle (esbuild includes a file once).
 *
 * Why: a parse and a RegExp build per route per request. The compilation is pure, so the result
 * for a path and options is kept. Only calls the validator makes (a string path, `sensitive` and
 * `strict` options) are memoised.
 */
import pathToRegexpExports from 'path-to-regexp';

interface PathToRegexpModule {
  pathToRegexp: (path: unknown, options?: Record<string, unknown>) => unknown;
}

const compiled = new Map<string, unknown>();
let installed = false;

export function memoiseValidatorRouteRegExps(): void {
  if (installed) return;
  installed = true;
  const module = pathToRegexpExports as unknown as PathToRegexpModule;
  const compile = module.pathToRegexp;
  module.pathToRegexp = (path, options = {}) => {
    const keys = Object.keys(options);
    if (typeof path !== 'string' || keys.some((key) => key !== 'sensitive' && key !== 'strict')) return compile(path, options);
    const key = `${options['sensitive'] ? 's' : '-'}${options['strict'] ? 's' : '-'}${path}`;
    let result = compiled.get(key);
    if (result === undefined) compiled.set(key, (result = compile(path, options)));
    return result;
  };
}

/** How many compilations are kept: for the guard test, which checks that the validator's lookups land here. */
export function memoisedRouteCount(): number {
  return compiled.size;
}
