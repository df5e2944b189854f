import { describe, expect, it } from 'vitest';
import { ignoredAuth } from '../../../src/checks/case/ignored-auth.js';
import { answered, caseAnswer } from '../../support/case-answer.js';

describe('ignored_auth', () => {
  it('lets no request without valid credentials succeed', () => {
    const judge = (status: number) => ignoredAuth.answer(caseAnswer(answered(status), { kind: 'unauthenticated' }));
    expect([401, 403, 404, 500].flatMap(judge)).toEqual([]);
    expect(judge(200)).toEqual(['a request without valid credentials must not succeed, but got 200']);
    expect(judge(204)).toHaveLength(1);
  });
});
