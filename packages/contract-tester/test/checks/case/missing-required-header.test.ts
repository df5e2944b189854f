import { describe, expect, it } from 'vitest';
import { missingRequiredHeader } from '../../../src/checks/case/missing-required-header.js';
import { answered, caseAnswer } from '../../support/case-answer.js';

describe('missing_required_header', () => {
  it('holds a request that breaks a required header to any 4xx, and leaves a server error to not_a_server_error', () => {
    const judge = (status: number, body?: unknown) =>
      missingRequiredHeader.answer(caseAnswer(answered(status, body), { kind: 'negative' }));
    expect([400, 404, 422, 499].flatMap((status) => judge(status))).toEqual([]);
    expect(judge(200, {})).toEqual(['a request that breaks the contract must be refused with a 4xx, but got 200 {}']);
    expect(judge(302)).toHaveLength(1);
    expect(judge(500)).toEqual([]);
  });
});
