import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Contract } from '../../contract/contract.js';
import type { Logger } from '../../log/logger.js';
import { StorageUnavailableError } from '../../storage/storage.js';
import { ApiError } from '../api-error.js';

/** One item of express-openapi-validator's `errors`. */
interface ValidationItem {
  path?: string;
  message?: string;
  errorCode?: string;
}

/** The shape of errors thrown by express-openapi-validator and by body-parser. */
interface HttpLikeError {
  status?: number;
  type?: string;
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

export function describeValidationErrors(items: readonly ValidationItem[]): string {
  const sentences = items.map(({ path, message = 'is invalid', errorCode = '' }) => {
    const field = fieldOf(path);
    if (errorCode.startsWith('additionalProperties')) return `${field} is not a field of this request; remove it`;
    if (errorCode.startsWith('required')) return `${field} is required`;
    if (/^Unknown query parameter/.test(message)) return `${message}; this operation takes no such parameter`;
    if (/^malformed uri/i.test(message)) return 'the URL is not valid percent-encoding';
    // ajv's messages ("must be >= 1") need the field in front; the validator's own are sentences.
    return field && message.startsWith('must') ? `${field} ${message}` : message;
  });
  return `Invalid request: ${[...new Set(sentences)].join('; ')}.`;
}

/** Turns anything thrown while handling a request into the ApiError the client will see. */
function toApiError(error: unknown, req: Parameters<RequestHandler>[0], contract: Contract): ApiError | undefined {
  if (error instanceof ApiError) return error;
  if (error instanceof StorageUnavailableError) {
    return new ApiError('service_unavailable', 'The service is temporarily unavailable. Try again later.', { 'Retry-After': '5' });
  }
  const { status, type, errors, headers } = (error ?? {}) as HttpLikeError;
  switch (type) {
    case 'entity.parse.failed':
      return new ApiError('malformed_json', 'The request body is not well-formed JSON.');
    case 'entity.too.large':
      return new ApiError('payload_too_large', `The request body is larger than ${contract.maxRequestBodyBytes} bytes.`);
    case 'charset.unsupported':
    case 'encoding.unsupported':
      return new ApiError('unsupported_media_type', 'Send the body as UTF-8 JSON without content encoding.');
  }
  // Other 400s without the validator's `errors` come from reading the body (bad gzip, cut-off stream).
  if (status === 400 && !errors) return new ApiError('malformed_json', 'The request body could not be read as JSON.');
  switch (status) {
    case 400:
      return new ApiError('validation_failed', errors?.length ? describeValidationErrors(errors) : 'The request is invalid.');
    case 404:
      return new ApiError('route_not_found', `No operation at ${req.method} ${req.originalUrl.split('?')[0]}.`);
    case 405: {
      const allow = headers?.['Allow'] ?? headers?.['allow'] ?? '';
      return new ApiError(
        'method_not_allowed',
        `${req.method} is not allowed here; use ${allow || 'another method'}.`,
        allow ? { Allow: allow } : {},
      );
    }
    case 413:
      return new ApiError('payload_too_large', `The request body is larger than ${contract.maxRequestBodyBytes} bytes.`);
    case 415:
      return new ApiError('unsupported_media_type', 'Send the body as JSON with "Content-Type: application/json".');
  }
  return undefined;
}

/** Requests no route claimed: outside the base path, or an operation without a handler. */
export function routeNotFound(): RequestHandler {
  return (req) => {
    throw new ApiError('route_not_found', `No operation at ${req.method} ${req.originalUrl.split('?')[0]}.`);
  };
}

/**
 * Writes every error as the interface's Error object. The status always comes from the spec's
 * ErrorCode table; unexpected errors are logged in full and answered with a bare 500.
 */
export function errorHandler(contract: Contract, logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) return next(error);
    let apiError = toApiError(error, req, contract);
    if (error instanceof StorageUnavailableError) {
      logger.warn({ err: error.cause, method: req.method, path: req.path }, 'database unavailable');
    }
    if (!apiError) {
      logger.error({ err: error, method: req.method, path: req.path }, 'unhandled error');
      apiError = new ApiError('internal_error', 'The service failed to handle the request. Try again later.');
    }
    const status = contract.errorCodes.get(apiError.code);
    if (status === undefined) throw new Error(`error code ${apiError.code} is missing from openapi.yaml`);
    res.status(status).set(apiError.headers).json({ code: apiError.code, message: apiError.message, status });
  };
}
