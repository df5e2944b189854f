import type { ErrorCode } from '../contract/error-codes.js';

/**
 * The one error type handlers and middleware throw. It carries the stable code; the HTTP status is
 * looked up from the spec's ErrorCode table when the response is written, so a code can never be
 * sent with a status the spec does not give it.
 */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}
