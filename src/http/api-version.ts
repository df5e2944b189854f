import type { Express, RequestHandler } from 'express';
import type { Contract } from '../contract/contract.js';
import type { Retirement } from '../contract/versions.js';
import { apiError } from '../errors/api-error.js';
import type { OperationHandlers } from '../handlers/operation.js';
import type { Storage } from '../storage/storage.js';
import { apiReferencePage } from './docs.js';
import type { Logger } from '../log/logger.js';
import { authenticate } from './middleware/authenticate.js';
import { announceDeprecatedInputs } from './middleware/deprecated-inputs.js';
import { announceDeprecations, deprecationValue, enforceSunsets, type Clock } from './middleware/deprecation.js';
import { readJsonBodies } from './middleware/request-body.js';
import { validateRequests } from './middleware/request-validation.js';
import type { RateLimits } from './rate-limits/rate-limits.js';
import type { OutcomeCheck } from './operation-route.js';
import { operationRouter } from './routes.js';
import { series } from './series.js';
import { specRoutes } from './spec-routes.js';

/** One major version of the API as one process serves it: under its base path, from its own document. */
export interface ApiVersion {
  contract: Contract;
  handlers: OperationHandlers;
  /** Set when a newer major version has been released: this one is deprecated, and goes at the sunset. */
  retirement?: Retirement;
}

export interface SharedParts {
  storage: Storage;
  logger: Logger;
  clock: Clock;
  limits: RateLimits;
  /** A check of each handler's outcome before it is written (AppOptions.checkOutcomes). */
  checkOutcomes?: OutcomeCheck | undefined;
}

/**
 * `/v1/openapi.json`, `/v1/openapi.yaml` and `/v1/docs`: a version's own published document and
 * reference page, without a key. Matched by a table lookup in front of the version's API, so that an
 * API request pays one string comparison for it rather than a router.
 */
function versionPublicRoutes(contract: Contract): RequestHandler {
  const spec = specRoutes(contract);
  const routes = new Map<string, RequestHandler>([
    ['/openapi.json', spec],
    ['/openapi.yaml', spec],
    ['/docs', apiReferencePage()],
  ]);
  return (req, res, next) => {
    const route = req.method === 'GET' ? routes.get(req.path) : undefined;
    if (route) return route(req, res, next);
    next();
  };
}

/**
 * Every response of a retired major version says so. A deprecated operation of that version keeps
 * its own (earlier) dates: a Deprecation header is one date. Both successors are linked.
 */
function announceRetirement(retirement: Retirement): RequestHandler {
  // RFC 9745 and RFC 8594, as an operation's deprecation (middleware/deprecation.ts).
  const headers = [
    ['Deprecation', deprecationValue(retirement.deprecatedAt)],
    ['Sunset', retirement.sunsetAt.toUTCString()],
  ] as const;
  const link = `<${retirement.successor}>; rel="successor-version"`;
  return (_req, res, next) => {
    for (const [name, value] of headers) if (!res.hasHeader(name)) res.setHeader(name, value);
    res.append('Link', link);
    next();
  };
}

/** From its sunset on, a retired major version answers 410, as a deprecated operation does after its own. */
function enforceRetirement(retirement: Retirement, clock: Clock): RequestHandler {
  return (req, _res, next) => {
    if (clock() >= retirement.sunsetAt) {
      throw apiError('operation_sunset', {
        operation: `The API under ${req.baseUrl}`,
        sunset: retirement.sunsetAt.toUTCString(),
        replacement: retirement.successor,
      });
    }
    next();
  };
}

/**
 * Mounts one major version on the app in the contract's order of precedence (see app.ts): its
 * published document and page; then under its base path the deprecation headers, authentication,
 * the key's rate limit, the sunsets and the body reader; its own express-openapi-validator (which
 * passes over paths outside its document's base path) and the notice of deprecated inputs; its
 * operation routes. Called once per
 * version served, the current one first.
 */
export function mountApiVersion(
  app: Express,
  { contract, handlers, retirement }: ApiVersion,
  { storage, logger, clock, limits, checkOutcomes }: SharedParts,
): void {
  const base = contract.basePath;
  const announce = [announceDeprecations(contract.deprecations), ...(retirement ? [announceRetirement(retirement)] : [])];
  const afterAuthentication = [
    ...(limits.perKey ? [limits.perKey] : []),
    ...(retirement ? [enforceRetirement(retirement, clock)] : []),
    enforceSunsets(clock),
  ];
  // One router layer each instead of one per middleware (see series.ts); the published document
  // and page first, as they need no key.
  app.use(
    base,
    series(
      versionPublicRoutes(contract),
      ...announce,
      authenticate(storage, contract.security, limits.failedAuth),
      ...afterAuthentication,
      readJsonBodies(contract),
    ),
  );
  const deprecatedInputs = announceDeprecatedInputs(contract, logger);
  app.use(series(...validateRequests(contract), ...(deprecatedInputs ? [deprecatedInputs] : [])));
  app.use(base, operationRouter(contract, handlers, checkOutcomes));
}
