import { describe, expect, it } from 'vitest';
import { ALL_CHECKS, DEFAULT_CHECKS, isCheckName, PROFILE_CHECKS } from '../../src/checks/names.js';

describe('the checks, by name', () => {
  it("are Schemathesis' by default, the profile's stricter ones apart, max_response_time on demand", () => {
    expect(DEFAULT_CHECKS).toEqual([
      'not_a_server_error',
      'status_code_conformance',
      'content_type_conformance',
      'response_headers_conformance',
      'response_schema_conformance',
      'negative_data_rejection',
      'positive_data_acceptance',
      'missing_required_header',
      'unsupported_method',
      'allow_header_conformance',
      'use_after_free',
      'ensure_resource_availability',
      'ignored_auth',
    ]);
    expect(ALL_CHECKS).toHaveLength(DEFAULT_CHECKS.length + PROFILE_CHECKS.length + 1);
    expect(new Set(ALL_CHECKS).size).toBe(ALL_CHECKS.length);
    expect(isCheckName('max_response_time')).toBe(true);
    expect(isCheckName('auth_first')).toBe(true);
    expect(isCheckName('status_code')).toBe(false);
  });
});
