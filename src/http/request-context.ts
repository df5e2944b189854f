import type { ServerResponse } from 'node:http';
import type { Deprecation } from '../contract/deprecations.js';
import type { ErrorCode } from '../contract/error-codes.js';
import type { Principal } from '../storage/storage.js';

/**
 * What the steps of one request learn and later ones need, in one typed object per request (as
 * Hono's c.var): the middleware, the operation adapter, the request log once the response closes,
 * and answers written below Express. Every field starts set, so every context has the same shape.
 */
export class RequestContext {
  /** Header fields every answer carries, held until the response's one writeHead (held-headers.ts). */
  heldHeaders: string[] | undefined = undefined;
  /** Something has set or read the response's headers: fields are set on it from then on (held-headers.ts). */
  headersOnResponse = false;
  /** The X-Request-Id the response carries (middleware/request-id.ts). */
  requestId: string | undefined = undefined;
  /** Why the request target cannot be read, found before Express saw it (normaliseTarget). */
  targetProblem: string | undefined = undefined;
  /** The request arrived as HEAD and is routed as the GET it mirrors (headAsGet). */
  arrivedAsHead = false;
  /** The x-deprecation of the operation requested, when it is deprecated: its sunset is enforced after authentication. */
  deprecation: Deprecation | undefined = undefined;
  /** Who sent the request, once authenticated: for the rate limit, the handler and the log line. */
  principal: Principal | undefined = undefined;
  /** The request log will write this response's line and observe its duration. */
  observed = false;
  /** When the request log began to time the request (performance.now()). */
  startedAt = 0;
  /** The code of the Error object sent with the response, for its log line. */
  errorCode: ErrorCode | undefined = undefined;
  /** Answered by an Error object written straight to its connection (a timeout, a shutdown): nothing else may answer it. */
  answeredRaw = false;
}

declare module 'node:http' {
  interface ServerResponse {
    /** Read through contextOf. */
    requestContext?: RequestContext;
  }
}

/**
 * The context of the request this response answers, made by whichever step asks first: the first
 * middleware, or a hook below Express. A property of the response, declared once above, because
 * every step holds the response, Node's or Express's: a lookup as cheap as any, where a WeakMap
 * costs a hash and work for the garbage collector on every request.
 */
export function contextOf(res: ServerResponse): RequestContext {
  return (res.requestContext ??= new RequestContext());
}

/**
 * This response's request was answered by an Error object written straight to its connection: its
 * status and code are that answer's, for the request log.
 */
export function noteRawAnswer(res: ServerResponse, status: number, code: ErrorCode): void {
  res.statusCode = status;
  const context = contextOf(res);
  context.errorCode = code;
  context.answeredRaw = true;
}
