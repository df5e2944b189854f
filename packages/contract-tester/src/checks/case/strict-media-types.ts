import type { NegativeRule } from '../../generate/negative-requests.js';
import { notRefused, type CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';

/** A body of a media type the operation does not take is refused. */
export const strictMediaTypes = defineCheck({
  name: 'strict_media_types',
  on: 'profile',
  description: 'a body of a media type the operation does not take is refused',
  refuses: ['unsupported media type'] satisfies NegativeRule[],
  answer: function strictMediaTypes(answer: CaseAnswer): string[] {
    return notRefused(answer);
  },
});
