import { describe, expect, it } from 'vitest';
import { headAsGet } from '../../../src/checks/response/head-as-get.js';
import { answered, caseAnswer, GET_PET } from '../../support/case-answer.js';
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

  it('has HEAD answered where GET is: not refused as a request', () => {
    const request = { ...GET_PET, method: 'HEAD' };
    const judge = (status: number) => headAsGet.answer(caseAnswer(answered(status), { kind: 'head', request }));
    expect([200, 404, 304].flatMap(judge)).toEqual([]);
    expect(judge(405)).toEqual(['HEAD must be answered as GET is (RFC 9110 §9.3.2), but got 405']);
    expect(judge(400)).toHaveLength(1);
  });
});
