import { MISSING_HEADER } from '../../generate/invalid-values.js';
import { notRefused, type CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';

/** A request without a required header parameter is refused. */
export const missingRequiredHeader = defineCheck({
  name: 'missing_required_header',
  on: 'default',
  description: 'a request without a required header parameter is refused (4xx)',
  refuses: [MISSING_HEADER],
  answer: function missingRequiredHeader(answer: CaseAnswer): string[] {
    return notRefused(answer);
  },
});
