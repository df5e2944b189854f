import { briefly, type CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';

/** Any request without valid credentials is answered 401, whatever else is wrong with it. */
export const authFirst = defineCheck({
  name: 'auth_first',
  on: 'profile',
  description: 'without valid credentials the answer is 401, whatever else is wrong',
  answer: function authFirst({ response }: CaseAnswer): string[] {
    return response.status !== 401
      ? [`without valid credentials the answer must be 401, before anything else, but got ${briefly(response)}`]
      : [];
  },
});
