import { describe, expect, it } from 'vitest';
import { stateRefusals } from '../../../src/checks/case/state-refusals.js';
import { answered, caseAnswer } from '../../support/case-answer.js';

describe('state_refusals', () => {
  it('narrows the client errors a valid request may get to those the profile lists', () => {
    const strict = { stateRefusals: [404] };
    expect(stateRefusals.answer(caseAnswer(answered(409), { strict }))).toEqual([
      'a valid request may be refused only with 404, but got 409',
    ]);
    expect(stateRefusals.answer(caseAnswer(answered(404), { strict }))).toEqual([]);
    expect(stateRefusals.answer(caseAnswer(answered(500), { strict }))).toEqual([]);
    expect(stateRefusals.answer(caseAnswer(answered(409)))).toEqual([]);
  });
});
