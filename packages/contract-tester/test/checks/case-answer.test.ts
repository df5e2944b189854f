import { describe, expect, it } from 'vitest';
import { briefly, isServerError, notRefused } from '../../src/checks/case-answer.js';
import { answered, caseAnswer } from '../support/case-answer.js';

describe('a case answer', () => {
  it('is told in brief: its status, and no more than the first 300 characters of its body', () => {
    expect(briefly(answered(204))).toBe('204');
    expect(briefly(answered(400, { code: 'x' }))).toBe('400 {"code":"x"}');
    const long = briefly(answered(200, 'a'.repeat(400)));
    expect(long).toBe(`200 "${'a'.repeat(299)}…`);
  });

  it('is a server error from 500 up', () => {
    expect(isServerError(caseAnswer(answered(499)))).toBe(false);
    expect(isServerError(caseAnswer(answered(500)))).toBe(true);
  });

  it('refuses a request that breaks the contract only with a 4xx, leaving a 5xx to not_a_server_error', () => {
    expect(notRefused(caseAnswer(answered(400)))).toEqual([]);
    expect(notRefused(caseAnswer(answered(499)))).toEqual([]);
    expect(notRefused(caseAnswer(answered(503)))).toEqual([]);
    expect(notRefused(caseAnswer(answered(201, { id: 1 })))).toEqual([
      'a request that breaks the contract must be refused with a 4xx, but got 201 {"id":1}',
    ]);
    expect(notRefused(caseAnswer(answered(302)))).toHaveLength(1);
  });
});
