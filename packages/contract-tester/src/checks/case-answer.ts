import type { TestRequest } from '../generate/requests.js';
import type { HttpResponse } from '../http/http-client.js';
import type { OperationModel } from '../spec/model.js';
import type { CheckDefinition } from './define.js';

/** What a request was built to be, which decides the answer it must get. */
export type CaseKind =
  /** Valid by the spec, with valid credentials (examples, coverage, fuzzing, sequences). */
  | 'positive'
  /** Following a link from a success. */
  | 'link'
  /** Invalid by the spec in one place. */
  | 'negative'
  /** A valid request without valid credentials (ignored_auth). */
  | 'unauthenticated'
  /** Any request without valid credentials, which must get 401 first (auth_first). */
  | 'auth-first'
  /** A method the path does not have. */
  | 'method'
  /** OPTIONS, whose Allow (if any) lists the path's methods. */
  | 'options'
  /** HEAD where GET is (head_as_get). */
  | 'head'
  /** A path the spec does not have (exact_paths). */
  | 'unknown-path';

/** How a profile tightens what a valid request may get. */
export interface Strictness {
  /** valid_writes_accepted: no 400 to a valid write, documented or not. */
  writes?: boolean;
  /** state_refusals: the only client errors a valid request may get. */
  stateRefusals?: readonly number[];
}

/** The answer to a case, with what the case was built to be: what a check of a case reads. */
export interface CaseAnswer {
  kind: CaseKind;
  /** The operation the request is for (for method cases, any operation of the path). */
  operation: OperationModel;
  request: TestRequest;
  response: HttpResponse;
  /** For method and OPTIONS cases: the methods the path has. */
  allowed: string[];
  strict: Strictness;
  /** The body's value as made, where the body was made from one (a form); otherwise read from the request. */
  value?: unknown;
}

/** A check of a case's answer: its definition and the function that decides it. */
export interface AnswerCheck<Name extends string = string> extends CheckDefinition<Name> {
  /** What is wrong with the answer, each in words that follow `METHOD target → `; empty when nothing is. */
  readonly answer: (answer: CaseAnswer) => string[];
}

/**
 * Statuses by which HTTP says "this request, as sent, is not acceptable" (RFC 9110 §15.5): a valid
 * request must never get one. Others a valid request can meet (404 for an id that names nothing,
 * 409 or 422 for one the state refuses, 403 for an account not allowed) are the API's to give.
 */
export const REJECTIONS: ReadonlySet<number> = new Set([400, 401, 405, 406, 411, 413, 414, 415, 431]);

/** A response in brief, for a finding: its status and the start of its body. */
export function briefly(response: HttpResponse): string {
  const text = response.text.length > 300 ? `${response.text.slice(0, 300)}…` : response.text;
  return text ? `${response.status} ${text}` : String(response.status);
}

/** Whether an answer is a server error (which not_a_server_error reports, and no other check of a refusal). */
export const isServerError = ({ response }: CaseAnswer) => response.status >= 500;

/** Whether an answer to a request that breaks the contract fails to refuse it with a 4xx. */
export function notRefused(answer: CaseAnswer): string[] {
  const { status } = answer.response;
  if (isServerError(answer) || (status >= 400 && status <= 499)) return [];
  return [`a request that breaks the contract must be refused with a 4xx, but got ${briefly(answer.response)}`];
}
