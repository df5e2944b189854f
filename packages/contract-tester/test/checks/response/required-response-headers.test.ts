import { describe, expect, it } from 'vitest';
import { messagesOf, observed, petStoreChecker } from '../../support/observed-response.js';

describe('required_response_headers', () => {
  it('requires the headers of every response, with their exact values', () => {
    const response = observed({ body: [], headers: { 'x-content-type-options': undefined, 'cache-control': 'max-age=60' } });
    expect(messagesOf(petStoreChecker(), 'required_response_headers', response)).toEqual([
      'GET /v1/pets → 200: cache-control: no-store is missing (got "max-age=60")',
      'GET /v1/pets → 200: x-content-type-options: nosniff is missing (got undefined)',
    ]);
  });
});
