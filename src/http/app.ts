import express, { type Express } from 'express';
import type { Contract } from '../contract/contract.js';
import { createHandlers } from '../handlers/index.js';
import type { OperationHandlers } from '../handlers/operation.js';
import { healthRoutes } from './health.js';
import type { Logger } from '../log/logger.js';
import type { Storage } from '../storage/storage.js';
import { apiReference } from './docs.js';
import { authenticate } from './middleware/authenticate.js';
import { announceDeprecations, enforceSunsets, type Clock } from './middleware/deprecation.js';
import { errorHandler, routeNotFound } from './middleware/error-handler.js';
import { requestLog } from './middleware/request-log.js';
import { parseJsonBodies, validateRequests } from './middleware/request-validation.js';
import { securityHeaders } from './middleware/security-headers.js';
import { operationRouter } from './routes.js';
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
}

/**
 * The order is the contract's order of precedence: deprecation headers on every response of a
 * deprecated operation; then authentication, before anything else can answer (401 beats 404, 405,
 * 400, 413, 415); then the sunset; then body parsing and validation; then the handlers.
 */
export function createApp({
  contract,
  storage,
  logger,
  clock = () => new Date(),
  idempotencyRetentionSeconds,
  handlers,
}: AppOptions): Express {
  const app = express();
  app.disable('x-powered-by');
  // Responses are no-store; an ETag would only cost a hash of every body.
  app.disable('etag');
  app.set('query parser', 'simple');

  app.use(requestLog(logger));
  app.use(securityHeaders());
  // Public, outside the base path: the published spec and the API reference (no key needed).
  app.use(specRoutes(contract));
  app.use('/docs', apiReference());

  app.use(healthRoutes(storage));

  const api = contract.basePath;
  // One router layer each instead of one per middleware (see series.ts).
  app.use(
    api,
    series(announceDeprecations(contract.deprecations), authenticate(storage), enforceSunsets(clock), ...parseJsonBodies(contract)),
  );
  app.use(series(...validateRequests(contract)));
  app.use(api, operationRouter(contract, handlers ?? createHandlers({ storage, basePath: api, clock, idempotencyRetentionSeconds })));

  app.use(routeNotFound());
  app.use(errorHandler(contract, logger));
  return app;
}
