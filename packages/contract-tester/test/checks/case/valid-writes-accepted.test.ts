import { describe, expect, it } from 'vitest';
import { validWritesAccepted } from '../../../src/checks/case/valid-writes-accepted.js';
import { answered, BOARD_API, caseAnswer, GET_PET, operationOf } from '../../support/case-answer.js';

describe('valid_writes_accepted', () => {
  it('refuses no valid write with 400, documented or not, when the profile asks it', () => {
    const mark = { operation: operationOf('markSquare', BOARD_API), request: { ...GET_PET, method: 'PUT' } };
    expect(validWritesAccepted.answer(caseAnswer(answered(400), mark))).toEqual([]);
    expect(validWritesAccepted.answer(caseAnswer(answered(400), { ...mark, strict: { writes: true } }))).toEqual([
      'a valid request must be accepted, but got 400',
    ]);
    expect(validWritesAccepted.answer(caseAnswer(answered(409), { ...mark, strict: { writes: true } }))).toEqual([]);
  });
});
