import { describe, expect, it } from 'vitest';
import { exactPaths } from '../../../src/checks/response/exact-paths.js';
import { answered, caseAnswer } from '../../support/case-answer.js';
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

  it('has a request to a path the spec does not have refused with a 4xx (a 5xx is not_a_server_error)', () => {
    const judge = (status: number) => exactPaths.answer(caseAnswer(answered(status), { kind: 'unknown-path' }));
    expect([400, 404, 499, 500].flatMap(judge)).toEqual([]);
    expect(judge(200)).toEqual(['a path the spec does not have must be refused with a 4xx, but got 200']);
    expect(judge(301)).toHaveLength(1);
  });
});
