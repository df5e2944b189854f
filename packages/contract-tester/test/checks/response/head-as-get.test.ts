import { describe, expect, it } from 'vitest';
import { ETAG, observed, petStoreChecker } from '../../support/observed-response.js';

describe('head_as_get', () => {
  it('checks HEAD as GET without a body', () => {
    const checker = petStoreChecker();
    expect(checker.route('HEAD', '/v1/pets')?.operation.operationId).toBe('listPets');
    expect(checker.violations(observed({ method: 'HEAD', text: '' }))).toEqual([]);
    expect(
      checker.violations(observed({ method: 'HEAD', status: 401, text: '', headers: { 'www-authenticate': 'Bearer realm="pet-store"' } })),
    ).toEqual([]);
    expect(checker.violations(observed({ method: 'HEAD', text: '[]' }))).toEqual([
      'HEAD /v1/pets → 200: a response to HEAD must not have a body (RFC 9110 §9.3.2)',
    ]);
    expect(checker.violations(observed({ method: 'HEAD', url: '/v1/pets/1', text: '', headers: ETAG }))).toEqual([
      'HEAD /v1/pets/1 → 200: required header Deprecation is missing',
      'HEAD /v1/pets/1 → 200: required header Sunset is missing',
      'HEAD /v1/pets/1 → 200: required header Link is missing',
    ]);
  });
});
