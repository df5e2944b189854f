import type { components } from '../../generated/openapi.js';
import { errorMessage, errorStatus, type ErrorCode, type ErrorParams } from './registry.js';

/** The Error object of the interface, as every 4xx and 5xx response carries it. */
export type ErrorBody = components['schemas']['Error'];

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

  /** The response body: the interface's Error object. */
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
