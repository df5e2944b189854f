import type { RequestHandler, Response } from 'express';
import type { Logger } from '../../log/logger.js';
import { compiledLine } from '../../log/compiled-line.js';
import type { HttpMetrics } from '../../metrics/metrics.js';
import { contextOf } from '../request-context.js';
import { traceIdOf } from './request-id.js';
import { arrivedMethod } from './request-target.js';

// A client may wrongly put its key in the query string (under any name) or even in the path; it must
// not reach the logs from there. Keys have one shape (psk_ and base64url), a few parameter names
// carry other secrets by convention, and the document's apiKey-in-query schemes name their own.
const SECRET_PARAMETERS = ['access_token', 'api_key', 'apikey', 'key', 'token'];

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The redaction of URLs for a document whose apiKey schemes take keys in these query parameters. */
export function urlRedactor(queryParameters: readonly string[] = []): (url: string) => string {
  const names = [...SECRET_PARAMETERS, ...queryParameters].map(escapeRegExp).join('|');
  const secret = new RegExp(`psk_[A-Za-z0-9_-]*|([?&](?:${names})=)[^&]*`, 'gi');
  return (url) => url.replace(secret, (_match, parameter: string | undefined) => `${parameter ?? ''}[redacted]`);
}

export const redactUrl = urlRedactor();

export interface RequestLogOptions {
  logger: Logger;
  /** The request's route template (src/http/route-labels.ts). */
  routeOf: (req: Parameters<RequestHandler>[0]) => string;
  /** Where the request's duration is observed; absent when metrics are off. */
  metrics?: HttpMetrics;
  /** Query parameters that carry keys (the apiKey-in-query schemes'): redacted like the conventional ones. */
  secretQueryParameters?: readonly string[];
}

/**
 * One JSON line per request when its response is done (or its client went away), written with one
 * pino call: the request id, the trace id of a valid traceparent, method, route template, URL
 * (redacted), status, duration in milliseconds, the account and key id (never the key), and the
 * error code of an Error object. Deliberately no headers: Authorization carries the key. The same
 * 'close' listener observes the request's duration for the metrics. Failures themselves are logged
 * in full by the error handler.
 */
/** The fields of a request's line, in the order they are written; undefined ones are left out. */
interface RequestLine {
  reqId: string | undefined;
  traceId: string | undefined;
  method: string;
  route: string;
  url: string;
  status: number;
  durationMs: number;
  account: string | undefined;
  keyId: number | undefined;
  code: string | undefined;
}

const REQUEST_LINE = {
  properties: {
    reqId: { type: 'string' },
    traceId: { type: 'string' },
    method: { type: 'string' },
    route: { type: 'string' },
    url: { type: 'string' },
    status: { type: 'integer' },
    durationMs: { type: 'number' },
    account: { type: 'string' },
    keyId: { type: 'integer' },
    code: { type: 'string' },
  },
} as const;

export function requestLog({ logger, routeOf, metrics, secretQueryParameters }: RequestLogOptions): RequestHandler {
  const redact = urlRedactor(secretQueryParameters);
  // These lines hold only the fields built below, none of which can carry a key, so they skip the
  // logger's belt-and-braces redaction; their JSON comes from a serialiser compiled once.
  const completed = compiledLine<RequestLine>(logger, 'info', 'request completed', REQUEST_LINE);
  const failed = compiledLine<RequestLine>(logger, 'error', 'request failed', REQUEST_LINE);
  // One listener for every response, called with the response as `this`: no closure, and no
  // wrapper of `once`, made per request. 'close' comes once, after 'finish' or alone when the
  // client goes away first.
  function onClose(this: Response): void {
    const req = this.req;
    const context = contextOf(this);
    const elapsedMs = performance.now() - context.startedAt;
    const status = this.statusCode;
    const method = arrivedMethod(req, this);
    const route = routeOf(req);
    metrics?.observeRequest(method, route, status, elapsedMs / 1000);
    const line = status >= 500 ? failed : completed;
    if (!line.enabled()) return;
    const { principal } = context;
    line.write({
      reqId: context.requestId,
      traceId: traceIdOf(req.headers.traceparent),
      method,
      route,
      url: redact(req.originalUrl),
      status,
      durationMs: Math.round(elapsedMs * 1000) / 1000,
      account: principal?.accountName,
      keyId: principal?.keyId,
      code: context.errorCode,
    });
  }
  return (_req, res, next) => {
    const context = contextOf(res);
    context.startedAt = performance.now();
    context.observed = true;
    res.on('close', onClose);
    next();
  };
}
