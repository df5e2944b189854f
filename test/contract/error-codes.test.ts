import { describe, expect, it } from 'vitest';
import { contractFromDocument, loadContract } from '../../src/contract/contract.js';
import type { OpenApiDocument, SchemaObject } from '../../src/contract/spec.js';

const contract = loadContract();

function clone(): OpenApiDocument {
  return structuredClone(contract.document);
}

describe('the error codes of openapi.yaml (readErrorCodes)', () => {
  it('has one table of stable error codes, each with a 4xx or 5xx status', () => {
    expect(Object.fromEntries(contract.errorCodes)).toEqual({
      validation_failed: 400,
      malformed_json: 400,
      invalid_utf8: 400,
      bad_request: 400,
      invalid_cursor: 400,
      missing_api_key: 401,
      invalid_api_key: 401,
      pet_not_found: 404,
      route_not_found: 404,
      method_not_allowed: 405,
      request_timeout: 408,
      idempotency_key_in_progress: 409,
      operation_sunset: 410,
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
      precondition_failed: 412,
    });
  });

  it('refuses an error code without a status', () => {
    const broken = clone();
    delete (broken.components.schemas['ErrorCode']!['oneOf'] as SchemaObject[])[0]!['x-http-status'];
    expect(() => contractFromDocument(broken)).toThrow(/ErrorCode entry .* needs a string const and an x-http-status/);
  });
});
