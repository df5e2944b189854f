import type { NegativeRule } from '../../generate/negative-requests.js';
import { notRefused, type CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';

/** Text that is not UTF-8, a lone surrogate or NUL is refused. */
export const textEncoding = defineCheck({
  name: 'text_encoding',
  on: 'profile',
  description: 'text that is not UTF-8, a lone surrogate or NUL is refused',
  refuses: ['badly encoded text'] satisfies NegativeRule[],
  answer: function textEncoding(answer: CaseAnswer): string[] {
    return notRefused(answer);
  },
});
