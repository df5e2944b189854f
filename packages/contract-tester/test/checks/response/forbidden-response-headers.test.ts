import { describe, expect, it } from 'vitest';
import { messagesOf, observed, petStoreChecker } from '../../support/observed-response.js';

describe('forbidden_response_headers', () => {
  it('refuses a header the profile forbids, on any response', () => {
    const checker = petStoreChecker();
    expect(messagesOf(checker, 'forbidden_response_headers', observed({ body: [], headers: { 'x-powered-by': 'Express' } }))).toEqual([
      'GET /v1/pets → 200: x-powered-by must not be sent',
    ]);
    expect(
      messagesOf(checker, 'forbidden_response_headers', observed({ url: '/nowhere', status: 404, headers: { 'x-powered-by': 'Express' } })),
    ).toEqual(['GET /nowhere → 404: x-powered-by must not be sent']);
    expect(messagesOf(checker, 'forbidden_response_headers', observed({ body: [] }))).toEqual([]);
  });
});
