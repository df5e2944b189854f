import { describe, expect, it } from 'vitest';
import { authFirst } from '../../../src/checks/case/auth-first.js';
import { answered, caseAnswer } from '../../support/case-answer.js';

describe('auth_first', () => {
  it('answers a request without valid credentials 401, before anything else', () => {
    const judge = (status: number) => authFirst.answer(caseAnswer(answered(status), { kind: 'auth-first' }));
    expect(judge(401)).toEqual([]);
    expect(judge(404)).toEqual(['without valid credentials the answer must be 401, before anything else, but got 404']);
    expect(judge(403)).toHaveLength(1);
  });
});
