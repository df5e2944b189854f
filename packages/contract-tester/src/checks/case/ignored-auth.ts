import { briefly, type CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';

/** A valid request without valid credentials does not succeed. */
export const ignoredAuth = defineCheck({
  name: 'ignored_auth',
  on: 'default',
  description: 'an operation that requires credentials does not succeed without valid ones',
  answer: function ignoredAuth({ response }: CaseAnswer): string[] {
    const { status } = response;
    return status >= 200 && status < 300 ? [`a request without valid credentials must not succeed, but got ${briefly(response)}`] : [];
  },
});
