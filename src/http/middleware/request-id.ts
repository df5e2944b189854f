import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { holdHeaders } from '../held-headers.js';
import { contextOf } from '../request-context.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * The client's X-Request-Id when it matches the contract's pattern (components.headers.RequestId),
 * else a new UUID. A repeated header arrives joined with ", ", which no usable id contains.
 */
export function chooseRequestId(given: string | string[] | undefined, pattern: RegExp): string {
  return typeof given === 'string' && pattern.test(given) ? given : randomUUID();
}

/** The id a response carries, or was about to carry (for answers written below Express). */
export function requestIdOf(req: IncomingMessage | undefined, res: ServerResponse | undefined, pattern: RegExp): string {
  return (res && contextOf(res).requestId) ?? chooseRequestId(req?.headers['x-request-id'], pattern);
}

/**
 * Gives the response its X-Request-Id, first, so that every answer carries it, errors included; and
 * begins the request's context with it.
 */
export function assignRequestId(pattern: RegExp): RequestHandler {
  return (req, res, next) => {
    const requestId = chooseRequestId(req.headers['x-request-id'], pattern);
    contextOf(res).requestId = requestId;
    holdHeaders(res, [REQUEST_ID_HEADER, requestId]);
    next();
  };
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;
const ALL_ZEROS = /^0+$/;

/**
 * The trace id of a W3C Trace Context `traceparent` (version-traceid-parentid-flags, lower-case
 * hexadecimal), or undefined when the header is absent or not valid: version ff, an all-zero trace or
 * parent id, version 00 with anything after the flags, or a later version whose extra data does not
 * follow a `-` (the spec's rules for parsing a version this code does not know).
 */
export function traceIdOf(traceparent: string | string[] | undefined): string | undefined {
  if (typeof traceparent !== 'string') return undefined;
  const match = TRACEPARENT.exec(traceparent);
  if (!match) return undefined;
  const [, version, traceId, parentId, , rest] = match;
  if (version === 'ff') return undefined;
  if (version === '00' && rest !== undefined) return undefined;
  if (ALL_ZEROS.test(traceId!) || ALL_ZEROS.test(parentId!)) return undefined;
  return traceId;
}
