import type { HttpResponse } from './http-client.js';
import { jsonEqual } from './json-text.js';
import type { TestRequest } from './requests.js';
import { documentedResponse, type OperationModel } from './spec-model.js';

/** What a request was built to be, which decides the answer it must get. */
export type CaseKind = 'positive' | 'negative' | 'authentication' | 'method' | 'head' | 'link';

/**
 * Statuses by which HTTP says "this request, as sent, is not acceptable" (RFC 9110 §15.5): a valid
 * request must never get one. Others a valid request can meet (404 for an id that names nothing,
 * 409 or 422 for one the state refuses, such as an idempotency key reused with another body; 410
 * after a sunset) are accepted when the operation documents them.
 */
export const REJECTIONS: ReadonlySet<number> = new Set([400, 401, 405, 406, 411, 413, 414, 415, 431]);

/**
 * Whether a valid request's status is an acceptance: documented for the operation, not a
 * rejection, and not a 5xx, unless the operation documents no success at all (answering 501 until
 * it is implemented).
 */
export function acceptsValidRequest(operation: OperationModel, status: number): boolean {
  if (!documentedResponse(operation, status) || REJECTIONS.has(status)) return false;
  if (status < 500) return true;
  return !operation.responses.some(({ status: documented }) => /^[23]/.test(documented));
}

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
  /** For method cases: the methods the path has. */
  allowed?: string[];
}

/**
 * What is wrong with the answer to a case beyond the contract checks on every response: a valid
 * request accepted, a negative one refused with a 4xx, 401 first without valid credentials, a
 * wrong method refused (a 405 listing the path's methods), HEAD answered as GET.
 */
export function unmetExpectations({ kind, operation, request, allowed = [] }: Expectation, response: HttpResponse): string[] {
  const { status } = response;
  const problems: string[] = [];
  if (response.bodyError) problems.push(response.bodyError);
  switch (kind) {
    case 'positive':
    case 'head':
      if (!acceptsValidRequest(operation, status)) problems.push(`a valid request must be accepted, but got ${briefly(response)}`);
      break;
    case 'link':
      if (status < 200 || status > 299) problems.push(`a link from a success must lead to a success, but got ${briefly(response)}`);
      break;
    case 'negative':
      if (status < 400 || status > 499)
        problems.push(`a request that breaks the contract must be refused with a 4xx, but got ${briefly(response)}`);
      break;
    case 'authentication':
      if (status !== 401)
        problems.push(`without valid credentials the answer must be 401, before anything else, but got ${briefly(response)}`);
      break;
    case 'method': {
      if (status < 400 || status > 499)
        problems.push(`${request.method} is not a method of this path and must be refused with a 4xx, but got ${briefly(response)}`);
      if (status === 405) {
        const listed = allowList(response.headers['allow']);
        const missing = allowed.filter((method) => !listed.includes(method));
        if (missing.length) problems.push(`Allow: ${listed.join(', ')} leaves out ${missing.join(', ')}`);
        if (listed.includes(request.method)) problems.push(`Allow lists ${request.method}, which was refused`);
      }
      break;
    }
  }
  return problems;
}

/**
 * A create (a POST answered 2xx) returns what it was given: each field sent that the response schema
 * also has comes back with the same value.
 */
export function unechoedFields(operation: OperationModel, request: TestRequest, response: HttpResponse): string[] {
  if (operation.method !== 'post' || response.status < 200 || response.status > 299 || !request.body) return [];
  const properties = documentedResponse(operation, response.status)?.schema?.['properties'];
  const body = response.body;
  if (!properties || typeof properties !== 'object' || body === null || typeof body !== 'object') return [];
  let sent: unknown;
  try {
    sent = JSON.parse(request.body.toString('utf8'));
  } catch {
    return [];
  }
  if (sent === null || typeof sent !== 'object' || Array.isArray(sent)) return [];
  return Object.entries(sent)
    .filter(([name, value]) => name in properties && !jsonEqual(value, (body as Record<string, unknown>)[name]))
    .map(
      ([name, value]) =>
        `${name} was sent as ${JSON.stringify(value)} but came back as ${JSON.stringify((body as Record<string, unknown>)[name])}`,
    );
}
