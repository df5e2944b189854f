import { errorMessage, errorStatus, type ErrorCode, type ErrorParams } from './registry.js';

/**
 * What an error says: its code, message and status. The body sent is made from it in the format the
 * document's error responses declare (src/contract/error-format.ts); in a document whose errors are
 * an object of code, message and status, as the pet store's are, it is that body.
 */
export interface ErrorBody {
  code: ErrorCode;
  message: string;
  status: number;
}

/**
 * The one error type handlers and middleware raise. It is made from the registry (see apiError), so
 * its status and message are the registry's; headers travel with it (WWW-Authenticate, Allow,
 * Retry-After) to the response that reports it.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.status = errorStatus(code);
  }

  /** What it says, without its headers. */
  toBody(): ErrorBody {
    return { code: this.code, message: this.message, status: this.status };
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

type ApiErrorArguments<C extends ErrorCode> =
  ErrorParams<C> extends undefined
    ? [params?: undefined, headers?: Record<string, string>]
    : [params: ErrorParams<C>, headers?: Record<string, string>];

/** The error of `code`, its message filled from `params` as the registry says. */
export function apiError<C extends ErrorCode>(code: C, ...[params, headers]: ApiErrorArguments<C>): ApiError {
  return new ApiError(code, errorMessage(code, params as ErrorParams<C>), headers);
}
