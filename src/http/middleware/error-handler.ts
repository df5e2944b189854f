import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import type { Contract } from '../../contract/contract.js';
import { apiError, isApiError, type ApiError } from '../../errors/api-error.js';
import type { Logger } from '../../log/logger.js';
import type { HttpMetrics } from '../../metrics/metrics.js';
import { QueryNotWrittenError, StorageUnavailableError } from '../../storage/storage.js';
import { contextOf } from '../request-context.js';
import { hasBody } from './request-body.js';
import { arrivedMethod } from './request-target.js';

/** One item of express-openapi-validator's `errors`. */
interface ValidationItem {
  path?: string;
  message?: string;
  errorCode?: string;
}

/** The shape of errors with an HTTP status, as express-openapi-validator throws them. */
interface HttpLikeError {
  status?: number;
  errors?: ValidationItem[];
  headers?: Record<string, string>;
}

/** `/body/name` → `body.name`; `/params/petId` → `path.petId`. */
function fieldOf(path: string | undefined): string {
  return (path ?? '')
    .replace(/^\//, '')
    .replace(/^params\b/, 'path')
    .replace(/\//g, '.');
}

/** The validator's findings as sentences that name the field and the rule it breaks. */
function describeValidationErrors(items: readonly ValidationItem[]): string[] {
  const sentences = items.map(({ path, message = 'is invalid', errorCode = '' }) => {
    const field = fieldOf(path);
    if (errorCode.startsWith('additionalProperties')) return `${field} is not a field of this request; remove it`;
    if (errorCode.startsWith('required')) return `${field} is required`;
    if (message.startsWith('Unknown query parameter')) return `${message}; this operation takes no such parameter`;
    if (/^malformed uri/i.test(message)) return 'the URL is not valid percent-encoding';
    // ajv's messages ("must be >= 1") need the field in front; the validator's own are sentences.
    return field && message.startsWith('must') ? `${field} ${message}` : message;
  });
  return sentences;
}

function pathOf(req: Request): string {
  return req.originalUrl.split('?')[0]!;
}

/** HEAD is answered wherever GET is (see headAsGet), so it is allowed wherever GET is. */
function withHead(allow: string): string {
  const methods = allow
    .split(',')
    .map((method) => method.trim())
    .filter(Boolean);
  if (methods.includes('GET') && !methods.includes('HEAD')) methods.splice(methods.indexOf('GET') + 1, 0, 'HEAD');
  return methods.join(', ');
}

/** Turns anything thrown while handling a request into the ApiError the client will see. */
function toApiError(error: unknown, req: Request, res: Response, contract: Contract): ApiError | undefined {
  if (isApiError(error)) return error;
  if (error instanceof StorageUnavailableError) return apiError('service_unavailable', undefined, { 'Retry-After': '5' });
  if (error instanceof QueryNotWrittenError) {
    const entry = contract.operations.find(({ operation }) => operation.operationId === error.operationId);
    if (entry) return apiError('not_implemented', { operation: `${entry.method.toUpperCase()} ${contract.basePath}${entry.path}` });
  }
  const { status, errors, headers } = (error ?? {}) as HttpLikeError;
  // A 400 without the validator's `errors` names no broken rule of the contract: the request could not be read.
  if (status === 400 && !errors) return apiError('malformed_json', { reason: 'unreadable' });
  switch (status) {
    case 400:
      return apiError('validation_failed', {
        problems: errors?.length ? describeValidationErrors(errors) : ['the request breaks the contract'],
      });
    case 404:
      return apiError('route_not_found', { method: arrivedMethod(req, res), path: pathOf(req) });
    case 405: {
      const allow = withHead(headers?.['Allow'] ?? headers?.['allow'] ?? '');
      return apiError('method_not_allowed', { method: arrivedMethod(req, res), allow }, allow ? { Allow: allow } : {});
    }
    case 413:
      return apiError('payload_too_large', { limit: contract.maxRequestBodyBytes });
    case 415:
      return apiError('unsupported_media_type', { reason: 'media-type' });
  }
  return undefined;
}

/** Requests no route claimed: outside the base path, or an operation without a handler. */
export function routeNotFound(): RequestHandler {
  return (req, res) => {
    throw apiError('route_not_found', { method: arrivedMethod(req, res), path: pathOf(req) });
  };
}

/**
 * Writes every error in the format the document's error responses declare (contract.errorFormat), with the status the registry (the spec) gives
 * its code, and counts it by code for the metrics. Unexpected errors are logged in full and answered
 * with a bare 500.
 */
export function errorHandler(contract: Contract, logger: Logger, metrics?: HttpMetrics): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    // Already answered on its connection (a timeout, a shutdown): what fails now is the cut-off read.
    const context = contextOf(res);
    if (context.answeredRaw) return;
    let answer = toApiError(error, req, res, contract);
    if (error instanceof StorageUnavailableError) {
      logger.warn({ err: error.cause, method: req.method, path: req.path }, 'database unavailable');
    }
    if (error instanceof QueryNotWrittenError) logger.warn({ method: req.method, path: req.path }, error.message);
    if (!answer) {
      logger.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
      answer = apiError('internal_error');
    }
    // A body left unread (refused before it was read) would otherwise be read to its end to keep
    // the connection: closing it is cheaper, and the client learns the answer at once.
    if (hasBody(req) && !req.complete) res.setHeader('Connection', 'close');
    metrics?.countError(answer.code);
    context.errorCode = answer.code;
    const { contentType, render } = contract.errorFormat;
    res.status(answer.status).set(answer.headers).set('Content-Type', contentType).send(render(answer));
  };
}
