import { describe, expect, it } from 'vitest';
import { canonicalNumbers } from '../../../src/checks/case/canonical-numbers.js';
import { answered, caseAnswer } from '../../support/case-answer.js';

describe('canonical_numbers', () => {
  it('holds a request that breaks canonical numbers to any 4xx, and leaves a server error to not_a_server_error', () => {
    const judge = (status: number, body?: unknown) => canonicalNumbers.answer(caseAnswer(answered(status, body), { kind: 'negative' }));
    expect([400, 404, 422, 499].flatMap((status) => judge(status))).toEqual([]);
    expect(judge(200, {})).toEqual(['a request that breaks the contract must be refused with a 4xx, but got 200 {}']);
    expect(judge(302)).toHaveLength(1);
    expect(judge(500)).toEqual([]);
  });
});
