import type { CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';

/** An answer comes within the time --max-response-time gives. */
export const maxResponseTime = defineCheck({
  name: 'max_response_time',
  on: 'timing',
  description: 'an answer within --max-response-time',
  judgesForm: true,
  readsValidAnswers: true,
  check: function maxResponseTime({ response }: Pick<CaseAnswer, 'response'>, limitMs: number): string[] {
    return response.elapsedMs > limitMs ? [`answered in ${Math.round(response.elapsedMs)} ms, over ${limitMs} ms`] : [];
  },
});
