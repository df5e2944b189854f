import type { IncomingMessage } from 'node:http';
import type { Contract } from '../contract/contract.js';
import { exactPathPattern } from '../contract/spec.js';

/** The route of a request that matched no path: every such request shares it, whatever its path. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * The public paths outside the API (health probes, the published spec, the reference page and its
 * files), as the templates their routers serve (src/http/health.ts, spec-routes.ts, docs.ts).
 */
const PUBLIC_ROUTES = ['/healthz', '/readyz', '/openapi.json', '/openapi.yaml', '/docs', '/docs/{file}', '/docs/assets/{file}'];

interface Route {
  /** Matches a request target (path, then optionally `?` and a query) on this template. */
  pattern: RegExp;
  template: string;
}

function routeOf(template: string): Route {
  const pattern = exactPathPattern(template).source.replace(/\$$/, '(?:\\?|$)');
  return { pattern: new RegExp(pattern), template };
}

/** What each major version publishes under its base path (api-version.ts), as route templates. */
const VERSION_PUBLIC_ROUTES = ['/openapi.json', '/openapi.yaml', '/docs'];

/**
 * The `http.route` of OpenTelemetry's HTTP conventions for metrics and logs: the path template of
 * the operation a request's path matches (`/v1/pets/{petId}`, with the base path), whatever its
 * method; a public route; or UNMATCHED_ROUTE, so that no client can mint label values. The
 * templates come from openapi.yaml's paths, of each version served. The request target is matched
 * as it arrived, before any router rewrote it, and without slicing off the query (no string is made
 * per request).
 */
export function routeLabels(...contracts: [Contract, ...Contract[]]): (req: IncomingMessage) => string {
  const versions = contracts.map(({ basePath, operations }) => {
    const templates = new Set([...operations.map(({ path }) => path), ...VERSION_PUBLIC_ROUTES].map((path) => `${basePath}${path}`));
    return { prefix: `${basePath}/`, routes: [...templates].map(routeOf) };
  });
  const publicRoutes = PUBLIC_ROUTES.map(routeOf);
  return (req) => {
    const target = (req as IncomingMessage & { originalUrl?: string }).originalUrl ?? req.url ?? '';
    const routes = versions.find(({ prefix }) => target.startsWith(prefix))?.routes ?? publicRoutes;
    for (const route of routes) if (route.pattern.test(target)) return route.template;
    return UNMATCHED_ROUTE;
  };
}
