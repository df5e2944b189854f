import { describe, expect, it } from 'vitest';
import { errorBody, observed, petStoreChecker } from '../../support/observed-response.js';

describe('unsupported_method', () => {
  const checker = petStoreChecker();

  it('requires Allow on a 405', () => {
    expect(checker.violations(observed({ method: 'PUT', status: 405, body: errorBody(405, 'method_not_allowed') }))).toEqual([
      'PUT /v1/pets → 405: a 405 must carry Allow (RFC 9110 §15.5.6)',
    ]);
    const allowed = observed({
      method: 'PUT',
      status: 405,
      body: errorBody(405, 'method_not_allowed'),
      headers: { allow: 'GET, HEAD, POST' },
    });
    expect(checker.violations(allowed)).toEqual([]);
  });
});
