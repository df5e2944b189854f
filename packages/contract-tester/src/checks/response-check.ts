import type { Profile } from '../profile.js';
import type { CheckDefinition } from './define.js';
import type { OpenApiDocument, OperationEntry } from '../spec/openapi.js';

/** What the checker sees of a response, whoever sent the request (the tester, supertest, fetch). */
export interface ObservedResponse {
  method: string;
  /** Path and query as requested. */
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: unknown;
  text: string;
}

/**
 * What the request was, where it changes what the spec allows: a request without valid credentials
 * may get 401 or 403 although the operation documents neither (HTTP's own answers to it), and an
 * invalid request any 4xx when the operation documents no client error at all.
 */
export type RequestIntent = 'valid' | 'invalid' | 'unauthenticated';

/** A schema violation in words, and its signature: the same words with array indexes left out. */
export interface Violation {
  problem: string;
  signature: string;
}

/** One problem a check found: words, or a schema violation with its signature. */
export type Problem = string | Violation;

export interface ResponseObject {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown }>;
}

/** The response an operation documents for a status, resolved, and where the spec has it. */
export interface DocumentedResponse {
  value: ResponseObject;
  pointer: string;
}

/** Everything a response check may read: the answer, where the spec has it, and the checker's schemas. */
export interface ResponseContext {
  response: ObservedResponse;
  /** `METHOD url → status`, the head of each finding's message. */
  where: string;
  head: boolean;
  intent: RequestIntent;
  document: OpenApiDocument;
  profile: Profile;
  /** The status of each error code, when the profile's error schema lists them. */
  errorCodes: ReadonlyMap<string, number> | undefined;
  /** The operation the request reached, if any. */
  route: OperationEntry | undefined;
  /** The response the operation documents for the status, if any. */
  documented: DocumentedResponse | undefined;
  /**
   * How a value breaks the schema at a pointer, if it does (nothing when the schema cannot be read:
   * a warning then names the schema and the check reading it).
   */
  schemaViolation: (pointer: string, value: unknown, what: string) => Violation | undefined;
}

/**
 * Which responses a check reads: every one; those no operation takes; those an operation takes;
 * or those whose status the operation documents.
 */
export type CheckScope = 'every' | 'unrouted' | 'routed' | 'documented';

/** A check of one response: its definition, the responses it reads, and the function that decides it. */
export interface ResponseCheck extends CheckDefinition {
  readonly scope: CheckScope;
  readonly check: (context: ResponseContext) => Problem[];
}
