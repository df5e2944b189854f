import type { HttpResponse } from '../http/http-client.js';
import type { TestRequest } from '../generate/requests.js';
import type { OperationModel } from '../spec/model.js';
import { answerCheck, type CheckName } from '../registry/checks.js';
import { allowHeaderConformance } from './case/allow-header-conformance.js';
import { authFirst } from './case/auth-first.js';
import { ignoredAuth } from './case/ignored-auth.js';
import { negativeDataRejection } from './case/negative-data-rejection.js';
import { notAServerError } from './case/not-a-server-error.js';
import { positiveDataAcceptance } from './case/positive-data-acceptance.js';
import { stateRefusals } from './case/state-refusals.js';
import { validWritesAccepted } from './case/valid-writes-accepted.js';
import { writeEcho } from './case/write-echo.js';
import type { AnswerCheck, CaseAnswer, CaseKind, Strictness } from './case-answer.js';
import { exactPaths } from './response/exact-paths.js';
import { headAsGet } from './response/head-as-get.js';
import { unsupportedMethod } from './response/unsupported-method.js';
import type { RequestIntent } from './response-check.js';
import type { Finding } from './response-contract.js';

export { allowList } from './case/allow-header-conformance.js';
export { sentValue } from './case/write-echo.js';
export { REJECTIONS, type CaseKind, type Strictness } from './case-answer.js';

export interface Expectation {
  kind: CaseKind;
  /** The operation the request is for (for method cases, any operation of the path). */
  operation: OperationModel;
  request: TestRequest;
  /** For negative cases: the check a failure to refuse it comes under. */
  rejectionCheck?: CheckName;
  /** For method and OPTIONS cases: the methods the path has, and whether HEAD must be among them. */
  allowed?: string[];
}

/** How the response checker is to read a case's answer. */
export function intentOf(kind: CaseKind): RequestIntent {
  if (kind === 'unauthenticated' || kind === 'auth-first') return 'unauthenticated';
  if (kind === 'negative' || kind === 'method' || kind === 'unknown-path') return 'invalid';
  return 'valid';
}

/**
 * The checks of a case's answer, by what the case was built to be, in groups: of a group, only the
 * first that finds something reports (a valid request refused is positive_data_acceptance's before
 * the profile's stricter rules on refusals).
 */
function checksOf(kind: CaseKind, rejectionCheck: CheckName | undefined): ReadonlyArray<ReadonlyArray<AnswerCheck<CheckName>>> {
  switch (kind) {
    case 'positive':
    case 'link':
      return [[positiveDataAcceptance, validWritesAccepted, stateRefusals]];
    case 'head':
      return [[headAsGet]];
    case 'negative':
      return [[(rejectionCheck && answerCheck(rejectionCheck)) || negativeDataRejection]];
    case 'unauthenticated':
      return [[ignoredAuth]];
    case 'auth-first':
      return [[authFirst]];
    case 'unknown-path':
      return [[exactPaths]];
    case 'method':
      return [[unsupportedMethod], [allowHeaderConformance]];
    case 'options':
      return [[allowHeaderConformance]];
  }
}

/**
 * What is wrong with the answer to a case beyond the contract checks on every response: a server
 * error; a valid request refused; an invalid one accepted; a request without valid credentials
 * served; a method the path does not have served, or refused with a 405 whose Allow is wrong.
 */
export function unmetExpectations(
  { kind, operation, request, rejectionCheck, allowed = [] }: Expectation,
  response: HttpResponse,
  strict: Strictness = {},
): Finding[] {
  const answer: CaseAnswer = { kind, operation, request, response, allowed, strict };
  const found: Finding[] = [];
  for (const group of [[notAServerError], ...checksOf(kind, rejectionCheck)] as const) {
    for (const check of group) {
      const messages = check.answer(answer);
      found.push(...messages.map((message) => ({ check: check.name, message: `${request.method} ${request.target} → ${message}` })));
      if (messages.length) break;
    }
  }
  return found;
}

/** write_echo's findings on the answer to a create (POST), a replacement (PUT) or an update (PATCH). */
export function unechoedFields(operation: OperationModel, request: TestRequest, response: HttpResponse, value?: unknown): Finding[] {
  const answer: CaseAnswer = { kind: 'positive', operation, request, response, allowed: [], strict: {}, value };
  return writeEcho.answer(answer).map((message) => ({ check: writeEcho.name, message }));
}
