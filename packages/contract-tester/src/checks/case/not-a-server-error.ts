import { documentedResponse, type OperationModel } from '../../spec/model.js';
import { briefly, isServerError, type CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';

/** Whether a 5xx is one the operation announces as its only answer (501 until it is implemented). */
function announcedServerError(operation: OperationModel, status: number): boolean {
  return (
    documentedResponse(operation, status) !== undefined && !operation.responses.some(({ status: documented }) => /^[23]/.test(documented))
  );
}

/** No server error, but one an operation announces as its only answer (never for a method or path the spec does not have). */
export const notAServerError = defineCheck({
  name: 'not_a_server_error',
  on: 'default',
  description: 'no 5xx (unless documented as the only answer) and always an answer',
  readsValidAnswers: true,
  answer: function notAServerError(answer: CaseAnswer): string[] {
    const { kind, operation, response } = answer;
    if (!isServerError(answer)) return [];
    if (kind !== 'method' && kind !== 'unknown-path' && announcedServerError(operation, response.status)) return [];
    return [`a server error: ${briefly(response)}`];
  },
});
