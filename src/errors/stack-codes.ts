/**
 * The error codes the stack itself raises (validation, authentication, routing, limits, timeouts,
 * shutdown), each with the status it has when the document's error-code table does not list it: a
 * document with no such table (any document not written for this stack) still gets every error with
 * a fitting status. A table that lists one of these codes gives it its status instead (registry.ts).
 * docs/starting-from-your-document.md lists them.
 */
export const STACK_ERROR_STATUSES = {
  validation_failed: 400,
  malformed_json: 400,
  invalid_utf8: 400,
  bad_request: 400,
  // Raised by every generated list (x-storage: list) for a cursor it did not issue.
  invalid_cursor: 400,
  missing_api_key: 401,
  invalid_api_key: 401,
  route_not_found: 404,
  // Raised by every generated get, update and delete (x-storage) whose schema names no notFound code of its own.
  not_found: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  // Raised by every create that takes an Idempotency-Key (hand-written or generated).
  idempotency_key_in_progress: 409,
  operation_sunset: 410,
  // Raised by every generated create (x-storage) whose key, one the client sends, a row has already.
  conflict: 409,
  precondition_failed: 412,
  payload_too_large: 413,
  uri_too_long: 414,
  unsupported_media_type: 415,
  expectation_failed: 417,
  rate_limited: 429,
  too_many_failed_authentications: 429,
  headers_too_large: 431,
  idempotency_key_reused: 422,
  internal_error: 500,
  not_implemented: 501,
  service_unavailable: 503,
  http_version_not_supported: 505,
} as const;

export type StackErrorCode = keyof typeof STACK_ERROR_STATUSES;
