import { describe, expect, it } from 'vitest';
import { unsupportedMethod } from '../../../src/checks/response/unsupported-method.js';
import { answered, caseAnswer, GET_PET } from '../../support/case-answer.js';
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

  it('has a method the path does not have refused', () => {
    const request = { ...GET_PET, method: 'PUT' };
    const judge = (status: number) => unsupportedMethod.answer(caseAnswer(answered(status), { kind: 'method', request }));
    expect([404, 405, 501].flatMap(judge)).toEqual([]);
    expect(judge(200)).toEqual(['PUT is not a method of this path and must be refused, but got 200']);
    expect(judge(302)).toHaveLength(1);
  });
});
