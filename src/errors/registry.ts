import { ERROR_STATUSES } from '../../generated/contract.js';
import { DOCUMENT_ERROR_MESSAGES, type DocumentErrorCode } from './document-messages.js';
import { STACK_ERROR_STATUSES, type StackErrorCode } from './stack-codes.js';

/** Every code an error can go out with: the stack's own, and those the document's error-code table adds. */
export type ErrorCode = StackErrorCode | DocumentErrorCode;

/** At most this many problems are listed, each at most this long (in code points). */
export const LISTED_PROBLEMS = 10;
export const PROBLEM_LENGTH = 200;

/**
 * The distinct problems, the first few in full and the rest counted, each cut short where it quotes
 * a long value: a body of a thousand unknown fields, or a 15,000-digit number, gets an answer of a
 * few hundred bytes, not one larger than the request.
 */
function listProblems(problems: readonly string[]): string {
  const distinct = [...new Set(problems)];
  const listed = distinct.slice(0, LISTED_PROBLEMS).map((problem) => {
    const points = [...problem];
    return points.length <= PROBLEM_LENGTH ? problem : `${points.slice(0, PROBLEM_LENGTH - 1).join('')}…`;
  });
  const more = distinct.length - listed.length;
  return more > 0 ? `${listed.join('; ')}; and ${more} more` : listed.join('; ');
}

/** The stack's own errors, by code: each message, or a template filled from what the raiser knows. */
const STACK_ERROR_MESSAGES = {
  validation_failed: ({ problems }: { problems: readonly string[] }) => `Invalid request: ${listProblems(problems)}.`,
  malformed_json: ({ reason }: { reason: 'syntax' | 'unreadable' }) =>
    reason === 'syntax' ? 'The request body is not well-formed JSON.' : 'The request body could not be read as JSON.',
  invalid_utf8: 'The request body is not well-formed UTF-8; send JSON in UTF-8.',
  bad_request: ({ problem }: { problem: string }) => `The request is not valid HTTP/1.1: ${problem}.`,
  invalid_cursor: 'query.cursor was not issued by this service; use the Link rel="next" header of the previous page.',
  missing_api_key: ({ how }: { how: string }) => `Send an API key as ${how}.`,
  invalid_api_key: 'The API key is not valid: it is unknown or has been revoked.',
  route_not_found: ({ method, path }: { method: string; path: string }) => `No operation at ${method} ${path}.`,
  not_found: ({ resource, key }: { resource: string; key: string }) => `There is no ${resource} ${key}.`,
  conflict: ({ resource, key }: { resource: string; key: string }) => `There is a ${resource} ${key} already.`,
  method_not_allowed: ({ method, allow }: { method: string; allow: string }) =>
    `${method} is not allowed here; use ${allow || 'another method'}.`,
  request_timeout: ({ part }: { part: 'headers' | 'request' }) =>
    part === 'headers' ? 'The request headers did not arrive in time.' : 'The request did not arrive in time.',
  operation_sunset: ({ operation, sunset, replacement }: { operation: string; sunset: string; replacement: string }) =>
    `${operation} was removed on ${sunset}; use ${replacement}.`,
  payload_too_large: ({ limit }: { limit: number }) => `The request body is larger than ${limit} bytes.`,
  uri_too_long: ({ limit }: { limit: number }) => `The request target is longer than ${limit} bytes.`,
  expectation_failed: 'Only "Expect: 100-continue" is supported.',
  precondition_failed: ({ petId }: { petId?: number }) =>
    petId === undefined
      ? 'The resource has changed: its ETag is not one that If-Match lists. Read it again and retry.'
      : `Pet ${petId} has changed: its ETag is no longer one that If-Match lists. Read it again and retry.`,
  headers_too_large: 'The request headers are too large.',
  idempotency_key_in_progress: 'A request with this Idempotency-Key is still being processed; retry it shortly with the same key.',
  idempotency_key_reused: 'This Idempotency-Key was already used with a different request body; send a new key for a new request.',
  rate_limited: ({ limit, windowSeconds, retryAfter }: { limit: number; windowSeconds: number; retryAfter: number }) =>
    `This API key has used its ${limit} requests per ${windowSeconds} seconds; retry in ${retryAfter} seconds.`,
  too_many_failed_authentications: ({ retryAfter }: { retryAfter: number }) =>
    `Too many requests from this address failed authentication; retry in ${retryAfter} seconds with a valid API key.`,
  unsupported_media_type: ({ reason }: { reason: 'media-type' | 'charset' }) =>
    reason === 'media-type'
      ? 'Send the body as JSON with "Content-Type: application/json".'
      : 'Send the body as UTF-8 JSON without content encoding.',
  internal_error: 'The service failed to handle the request. Try again later.',
  not_implemented: ({ operation }: { operation: string }) => `${operation} is not implemented yet.`,
  service_unavailable: 'The service is temporarily unavailable. Try again later.',
  http_version_not_supported: 'Send HTTP/1.1 (or HTTP/1.0).',
} as const satisfies { [C in StackErrorCode]: string | ((params: never) => string) };

/**
 * Every error the service sends, by code: the one place a message is written. Each code's status is
 * the document's where its error-code table lists the code (x-http-status, through
 * generated/contract.ts), else the stack's documented default (stack-codes.ts), so a code can never
 * go out with another status.
 */
export const ERROR_MESSAGES = { ...STACK_ERROR_MESSAGES, ...DOCUMENT_ERROR_MESSAGES } as const satisfies {
  [C in ErrorCode]: string | ((params: never) => string);
};

/** What the message of `code` is filled from: nothing for a fixed message. */
export type ErrorParams<C extends ErrorCode> = (typeof ERROR_MESSAGES)[C] extends (params: infer P) => string ? P : undefined;

const DOCUMENT_STATUSES: Readonly<Record<string, number>> = ERROR_STATUSES;
const DEFAULT_STATUSES: Readonly<Record<string, number>> = STACK_ERROR_STATUSES;

export function errorStatus(code: ErrorCode): number {
  return DOCUMENT_STATUSES[code] ?? DEFAULT_STATUSES[code]!;
}

export function errorMessage<C extends ErrorCode>(code: C, params: ErrorParams<C>): string {
  const message = ERROR_MESSAGES[code] as string | ((params: ErrorParams<C>) => string);
  return typeof message === 'string' ? message : message(params);
}
