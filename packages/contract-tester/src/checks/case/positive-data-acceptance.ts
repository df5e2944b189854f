import type { TestRequest } from '../../generate/requests.js';
import { needsCredentials, type OperationModel } from '../../spec/model.js';
import { briefly, REJECTIONS, type CaseAnswer } from '../case-answer.js';
import { defineCheck } from '../define.js';

/**
 * Whether a rejection of a valid request may be the state's refusal rather than the request's, when
 * the operation documents it: a 400 to a write (the square already marked; a read is never refused
 * by the state with 400, and valid_writes_accepted holds writes to that too), or a 401 from an
 * operation that asks no credentials of the client, whose credentials are then data the server may
 * not know (a token operation given a user and password). A 401 to credentials the tester was given
 * is theirs refused. The rule is written out in the README, "Valid requests".
 */
function refusedByState(operation: OperationModel, status: number): boolean {
  const documented = operation.responses.some(({ status: listed }) => listed === String(status));
  if (status === 400) return documented && operation.method !== 'get' && operation.method !== 'head';
  if (status === 401) return documented && !needsCredentials(operation);
  return false;
}

/**
 * RFC 9112 §3 recommends that servers take request lines of at least 8000 octets: a valid request
 * whose line is longer may be refused for it (414, or 431 where the server counts the whole head).
 */
const MIN_REQUEST_LINE = 8000;

function refusedForLength(request: TestRequest, status: number): boolean {
  return (status === 414 || status === 431) && Buffer.byteLength(`${request.method} ${request.target} HTTP/1.1`) > MIN_REQUEST_LINE;
}

/** A valid request is not refused as sent (REJECTIONS), but where the state may refuse it or its line is too long. */
export const positiveDataAcceptance = defineCheck({
  name: 'positive_data_acceptance',
  on: 'default',
  description: 'a valid request is not refused as sent (400, 401, 405, 413, 415, …)',
  readsValidAnswers: true,
  answer: function positiveDataAcceptance({ operation, request, response }: CaseAnswer): string[] {
    const { status } = response;
    if (!REJECTIONS.has(status) || refusedByState(operation, status) || refusedForLength(request, status)) return [];
    return [`a valid request must be accepted, but got ${briefly(response)}`];
  },
});
