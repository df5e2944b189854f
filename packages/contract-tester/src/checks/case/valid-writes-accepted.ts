import { briefly, type CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';

/** A valid request is never refused with 400, even where the operation documents one (the profile's Strictness.writes). */
export const validWritesAccepted = defineCheck({
  name: 'valid_writes_accepted',
  on: 'profile',
  description: 'a valid write is never refused with 400, documented or not',
  answer: function validWritesAccepted({ response, strict }: CaseAnswer): string[] {
    return response.status === 400 && strict.writes ? [`a valid request must be accepted, but got ${briefly(response)}`] : [];
  },
});
