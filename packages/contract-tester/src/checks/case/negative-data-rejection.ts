import { notRefused, type CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';

/** A request that breaks the spec in one place is refused: the check of every negative rule no other check claims. */
export const negativeDataRejection = defineCheck({
  name: 'negative_data_rejection',
  on: 'default',
  description: 'a request that breaks the spec in one place is refused (4xx)',
  answer: function negativeDataRejection(answer: CaseAnswer): string[] {
    return notRefused(answer);
  },
});
