import { describe, expect, it } from 'vitest';
import { errorBody, observed, petStoreChecker } from '../../support/observed-response.js';

describe('exact_paths', () => {
  it('matches paths exactly: another spelling is no operation and may not succeed or fail with a 5xx', () => {
    const checker = petStoreChecker();
    for (const url of ['/v1/pets/', '/V1/pets', '/v1/Pets', '/v1//pets']) {
      expect(checker.violations(observed({ url, body: [] }))).toEqual([
        `GET ${url} → 200: success from a path and method the spec does not have`,
      ]);
    }
    expect(checker.violations(observed({ url: '/v1/store/orders/', status: 501, body: errorBody(501, 'not_implemented') }))).toEqual([
      'GET /v1/store/orders/ → 501: status 501 for a path and method the spec does not have',
    ]);
    expect(checker.route('GET', '/v1/pets/1?x=1')?.operation.operationId).toBe('getPet');
  });
});
