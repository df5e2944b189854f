import { describe, expect, it } from 'vitest';
import { coerceHeader } from '../../../src/checks/response/response-headers-conformance.js';
import { DEPRECATION, ETAG, observed, PET, petStoreChecker } from '../../support/observed-response.js';

describe('response_headers_conformance', () => {
  const checker = petStoreChecker();

  it('refuses a missing required header', () => {
    expect(checker.violations(observed({ method: 'POST', status: 201, body: PET, headers: ETAG }))).toEqual([
      'POST /v1/pets → 201: required header Location is missing',
    ]);
    expect(
      checker.violations(observed({ url: '/v1/pets/1', body: PET, headers: { ...ETAG, ...DEPRECATION, deprecation: undefined } })),
    ).toEqual(['GET /v1/pets/1 → 200: required header Deprecation is missing']);
  });

  it('reads header values as their schema types', () => {
    expect(coerceHeader('42', { type: 'integer' })).toBe(42);
    expect(coerceHeader('true', { type: 'boolean' })).toBe(true);
    expect(coerceHeader('a, b', { type: 'array' })).toEqual(['a', 'b']);
    expect(coerceHeader('4x', { type: 'integer' })).toBe('4x');
  });
});
