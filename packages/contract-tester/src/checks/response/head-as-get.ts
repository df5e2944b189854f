import { briefly, REJECTIONS, type CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';
import type { Problem, ResponseContext } from '../response-check.js';

/** HEAD is answered as GET without the body (RFC 9110 §9.3.2). */
export const headAsGet = defineCheck({
  name: 'head_as_get',
  on: 'profile',
  description: 'HEAD is answered wherever GET is, as GET without the body',
  scope: 'every',
  check: function headAsGet({ head, response }: ResponseContext): Problem[] {
    return head && response.text ? ['a response to HEAD must not have a body (RFC 9110 §9.3.2)'] : [];
  },
  /** HEAD where GET is: not refused as a request. */
  answer: function headAnswered({ response }: CaseAnswer): string[] {
    return REJECTIONS.has(response.status) ? [`HEAD must be answered as GET is (RFC 9110 §9.3.2), but got ${briefly(response)}`] : [];
  },
});
