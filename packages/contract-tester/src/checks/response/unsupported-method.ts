import { briefly, type CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';
import type { Problem, ResponseContext } from '../response-check.js';

/** A 405 names the methods the path has (RFC 9110 §15.5.6). */
export const unsupportedMethod = defineCheck({
  name: 'unsupported_method',
  on: 'default',
  description: 'a method the path does not have is refused, a 405 with Allow',
  scope: 'every',
  check: function unsupportedMethod({ response }: ResponseContext): Problem[] {
    return response.status === 405 && response.headers['allow'] === undefined ? ['a 405 must carry Allow (RFC 9110 §15.5.6)'] : [];
  },
  /** A method the path does not have: not served. */
  answer: function unsupportedMethodRefused({ request, response }: CaseAnswer): string[] {
    const { status } = response;
    return status >= 200 && status < 400
      ? [`${request.method} is not a method of this path and must be refused, but got ${briefly(response)}`]
      : [];
  },
});
