import type { HttpResponse } from '../http/http-client.js';
import { jsonEqual, jsonText, parseExactJson } from '../generate/json-text.js';
import { mergeAllOf } from '../generate/valid-values.js';
import type { TestRequest } from '../generate/requests.js';
import { documentedResponse, needsCredentials, type OperationModel } from '../spec/model.js';
import { CHECK, type CheckName } from '../registry/checks.js';
import type { RequestIntent } from './response-check.js';
import type { Finding } from './response-contract.js';

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

/**
 * Statuses by which HTTP says "this request, as sent, is not acceptable" (RFC 9110 §15.5): a valid
 * request must never get one. Others a valid request can meet (404 for an id that names nothing,
 * 409 or 422 for one the state refuses, 403 for an account not allowed) are the API's to give.
 */
export const REJECTIONS: ReadonlySet<number> = new Set([400, 401, 405, 406, 411, 413, 414, 415, 431]);

/** The methods an `Allow` header lists, upper-cased. */
export function allowList(header: string | string[] | undefined): string[] {
  const text = Array.isArray(header) ? header.join(',') : (header ?? '');
  return text
    .split(',')
    .map((method) => method.trim().toUpperCase())
    .filter(Boolean);
}

function briefly(response: HttpResponse): string {
  const text = response.text.length > 300 ? `${response.text.slice(0, 300)}…` : response.text;
  return text ? `${response.status} ${text}` : String(response.status);
}

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

/** How a profile tightens what a valid request may get. */
export interface Strictness {
  /** valid_writes_accepted: no 400 to a valid write, documented or not. */
  writes?: boolean;
  /** state_refusals: the only client errors a valid request may get. */
  stateRefusals?: readonly number[];
}

/** Whether a 5xx is one the operation announces as its only answer (501 until it is implemented). */
function announcedServerError(operation: OperationModel, status: number): boolean {
  return (
    documentedResponse(operation, status) !== undefined && !operation.responses.some(({ status: documented }) => /^[23]/.test(documented))
  );
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
  const { status } = response;
  const found: Finding[] = [];
  const add = (check: CheckName, message: string) => found.push({ check, message: `${request.method} ${request.target} → ${message}` });
  const serverError = status >= 500;
  if (serverError && !(kind !== 'method' && kind !== 'unknown-path' && announcedServerError(operation, status))) {
    add(CHECK.not_a_server_error, `a server error: ${briefly(response)}`);
  }
  const success = status >= 200 && status < 400;
  switch (kind) {
    case 'positive':
    case 'link':
      if (REJECTIONS.has(status) && !refusedByState(operation, status) && !refusedForLength(request, status))
        add(CHECK.positive_data_acceptance, `a valid request must be accepted, but got ${briefly(response)}`);
      else if (status === 400 && strict.writes)
        add(CHECK.valid_writes_accepted, `a valid request must be accepted, but got ${briefly(response)}`);
      else if (strict.stateRefusals && status >= 400 && status < 500 && !strict.stateRefusals.includes(status))
        add(
          CHECK.state_refusals,
          `a valid request may be refused only with ${strict.stateRefusals.join(', ')}, but got ${briefly(response)}`,
        );
      break;
    case 'head':
      if (REJECTIONS.has(status)) add(CHECK.head_as_get, `HEAD must be answered as GET is (RFC 9110 §9.3.2), but got ${briefly(response)}`);
      break;
    case 'negative':
      if (!serverError && (status < 400 || status > 499)) {
        add(
          rejectionCheck ?? CHECK.negative_data_rejection,
          `a request that breaks the contract must be refused with a 4xx, but got ${briefly(response)}`,
        );
      }
      break;
    case 'unauthenticated':
      if (status >= 200 && status < 300)
        add(CHECK.ignored_auth, `a request without valid credentials must not succeed, but got ${briefly(response)}`);
      break;
    case 'auth-first':
      if (status !== 401)
        add(CHECK.auth_first, `without valid credentials the answer must be 401, before anything else, but got ${briefly(response)}`);
      break;
    case 'unknown-path':
      if (!serverError && (status < 400 || status > 499))
        add(CHECK.exact_paths, `a path the spec does not have must be refused with a 4xx, but got ${briefly(response)}`);
      break;
    case 'method': {
      if (success)
        add(CHECK.unsupported_method, `${request.method} is not a method of this path and must be refused, but got ${briefly(response)}`);
      if (status === 405) {
        const listed = allowList(response.headers['allow']);
        const missing = allowed.filter((method) => !listed.includes(method));
        if (missing.length) add(CHECK.allow_header_conformance, `Allow: ${listed.join(', ')} leaves out ${missing.join(', ')}`);
        if (listed.includes(request.method)) add(CHECK.allow_header_conformance, `Allow lists ${request.method}, which was refused`);
      }
      break;
    }
    case 'options': {
      const header = response.headers['allow'];
      if (status >= 200 && status < 300 && header !== undefined) {
        const listed = allowList(header);
        const missing = allowed.filter((method) => !listed.includes(method));
        if (missing.length) add(CHECK.allow_header_conformance, `Allow: ${listed.join(', ')} leaves out ${missing.join(', ')}`);
      }
      break;
    }
  }
  return found;
}

/** A body's JSON value as sent, if it was JSON (or a form made from a value). */
export function sentValue(request: TestRequest, value?: unknown): unknown {
  if (value !== undefined) return value;
  if (!request.body) return undefined;
  try {
    return parseExactJson(request.body.toString('utf8'));
  } catch {
    return undefined;
  }
}

/**
 * write_echo: a create (POST), a replacement (PUT) or an update (PATCH) answered 2xx returns what
 * it was given: each field sent that the response schema also has comes back with the same value;
 * a PATCH's null (JSON Merge Patch, RFC 7396) comes back absent.
 */
export function unechoedFields(operation: OperationModel, request: TestRequest, response: HttpResponse, value?: unknown): Finding[] {
  if (!['post', 'put', 'patch'].includes(operation.method) || response.status < 200 || response.status > 299) return [];
  const schema = documentedResponse(operation, response.status)?.schema;
  const properties = schema && mergeAllOf(schema)['properties'];
  const body = response.body;
  if (!properties || typeof properties !== 'object' || body === null || typeof body !== 'object' || Array.isArray(body)) return [];
  const sent = sentValue(request, value);
  if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) return [];
  const answered = body as Record<string, unknown>;
  const patch = operation.method === 'patch';
  return Object.entries(sent)
    .filter(([name]) => name in properties)
    .filter(([name, value]) =>
      patch && value === null ? answered[name] !== undefined && answered[name] !== null : !jsonEqual(value, answered[name]),
    )
    .map(([name, value]) => ({
      check: CHECK.write_echo,
      message:
        patch && value === null
          ? `${name} was removed (null) but came back as ${jsonText(answered[name])}`
          : `${name} was sent as ${jsonText(value)} but came back as ${jsonText(answered[name])}`,
    }));
}
