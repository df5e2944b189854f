import type { Express, RequestHandler } from 'express';
import type { Contract } from '../contract/contract.js';
import type { Predecessor } from '../contract/versions.js';
import { createHandlers } from '../handlers/index.js';
import type { OperationHandlers } from '../handlers/operation.js';
import { predecessorHandlers } from '../handlers/predecessor.js';
import type { Logger } from '../log/logger.js';
import type { HttpMetrics } from '../metrics/metrics.js';
import type { Storage } from '../storage/storage.js';
import { mountApiVersion } from './api-version.js';
import type { OutcomeCheck } from './operation-route.js';
import { apiReference } from './docs.js';
import { expressApp } from './express-app.js';
import { healthRoutes } from './health.js';
import { holdHeadersUntilWritten } from './held-headers.js';
import { Lifecycle } from './lifecycle.js';
import type { Clock } from './middleware/deprecation.js';
import { errorHandler, routeNotFound } from './middleware/error-handler.js';
import { assignRequestId } from './middleware/request-id.js';
import { requestLog } from './middleware/request-log.js';
import { checkRequestTarget, headAsGet } from './middleware/request-target.js';
import { securityHeaders } from './middleware/security-headers.js';
import { createRateLimits, type RateLimitSettings } from './rate-limits/rate-limits.js';
import { routeLabels } from './route-labels.js';
import { series } from './series.js';
import { specRoutes } from './spec-routes.js';

export interface AppOptions {
  contract: Contract;
  storage: Storage;
  logger: Logger;
  /** Injected so that sunset behaviour (and the expiry of idempotency records) can be tested at any instant. */
  clock?: Clock;
  /** How long the record of an Idempotency-Key is kept (config: IDEMPOTENCY_RETENTION_SECONDS). */
  idempotencyRetentionSeconds?: number;
  /** The operations' implementations; by default those of src/handlers on this storage. */
  handlers?: OperationHandlers;
  /** Shutdown state, for readiness and for closing connections while draining. */
  lifecycle?: Lifecycle;
  /** Where requests and errors are counted (the metrics listener's registry); absent: not measured. */
  metrics?: HttpMetrics;
  /** Requests per key and failed authentications per address; absent: no limits. */
  rateLimits?: RateLimitSettings;
  /**
   * The previous major version, served beside this one from its own document until its sunset
   * (loadPredecessor), with its handlers: by default this version's, adapted where the versions
   * differ (src/handlers/predecessor.ts).
   */
  predecessor?: Predecessor & { handlers?: OperationHandlers };
  /** Proxies in front that append to X-Forwarded-For (config: TRUST_PROXY_HOPS); 0: the socket's peer is the client. */
  trustProxyHops?: number;
  /** A check of each handler's outcome before it is written (config: CHECK_RESPONSES, which npm run dev sets); absent: none. */
  checkOutcomes?: OutcomeCheck;
}

/** While the server winds down, every response closes its connection, so clients reconnect elsewhere. */
function closeWhileWindingDown(lifecycle: Lifecycle): RequestHandler {
  return (_req, res, next) => {
    if (lifecycle.windingDown) res.setHeader('Connection', 'close');
    next();
  };
}

/**
 * The order is the contract's order of precedence: the request id and the request's log line and
 * metrics, before anything can answer; what is not HTTP/1.1 at all; deprecation headers on every
 * response of a deprecated operation; then authentication, before anything else can answer (401
 * beats 404, 405, 400, 413, 415), and the key's rate limit right after it; then the sunset; then
 * body reading and validation; then the handlers. Routing is exact: case-sensitive, and a trailing slash is another path.
 */
export function createApp({
  contract,
  storage,
  logger,
  clock = () => new Date(),
  idempotencyRetentionSeconds,
  handlers,
  lifecycle = new Lifecycle(),
  metrics,
  rateLimits,
  trustProxyHops = 0,
  predecessor,
  checkOutcomes,
}: AppOptions): Express {
  const app = expressApp();
  holdHeadersUntilWritten(app);
  // req.ip: the client behind that many proxies (X-Forwarded-For), or the socket's peer.
  if (trustProxyHops > 0) app.set('trust proxy', trustProxyHops);
  const limits = rateLimits ? createRateLimits(rateLimits, storage) : {};

  app.use(
    series(
      assignRequestId(contract.requestIdPattern),
      requestLog({
        logger,
        routeOf: routeLabels(contract, ...(predecessor ? [predecessor.contract] : [])),
        metrics,
        secretQueryParameters: contract.security.queryParameters,
      }),
      securityHeaders(),
      closeWhileWindingDown(lifecycle),
      checkRequestTarget(contract),
      headAsGet(),
    ),
  );
  // The current version, then the one it succeeds while that is still served (src/contract/versions.ts).
  const shared = { storage, logger, clock, limits, checkOutcomes };
  mountApiVersion(
    app,
    { contract, handlers: handlers ?? createHandlers({ storage, basePath: contract.basePath, clock, idempotencyRetentionSeconds }) },
    shared,
  );
  if (predecessor) {
    const basePath = predecessor.contract.basePath;
    const own = predecessor.handlers ?? predecessorHandlers(createHandlers({ storage, basePath, clock, idempotencyRetentionSeconds }));
    mountApiVersion(app, { ...predecessor, handlers: own }, shared);
  }

  // Public, outside the base path: the published spec, the API reference and the probes (no key
  // needed). After the API, which they cannot shadow (no path is in both), so that API requests do
  // not pass through their routers on the way.
  app.use(specRoutes(contract));
  app.use('/docs', apiReference());
  app.use(healthRoutes(storage, lifecycle));

  app.use(routeNotFound());
  app.use(errorHandler(contract, logger, metrics));
  return app;
}
