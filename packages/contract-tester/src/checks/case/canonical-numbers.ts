import type { NegativeRule } from '../../generate/negative-requests.js';
import { notRefused, type CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';

/** A number not written canonically (`+1`, `01`, `1.0`) is refused. */
export const canonicalNumbers = defineCheck({
  name: 'canonical_numbers',
  on: 'profile',
  description: 'numbers not written canonically (+1, 01, 1.0) are refused',
  refuses: ['non-canonical number'] satisfies NegativeRule[],
  answer: function canonicalNumbers(answer: CaseAnswer): string[] {
    return notRefused(answer);
  },
});
