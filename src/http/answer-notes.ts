import type { ServerResponse } from 'node:http';
import type { ErrorCode } from '../contract/error-codes.js';

// Symbols on the response itself rather than an object per request: what the request log reads when
// the response closes, beyond its status.
const OBSERVED = Symbol('observed by the request log');
const ERROR_CODE = Symbol('error code sent');
const ANSWERED_RAW = Symbol('answered below Express');

type Noted = ServerResponse & { [OBSERVED]?: true; [ERROR_CODE]?: ErrorCode; [ANSWERED_RAW]?: true };

/** The request log will write this response's line and observe its duration. */
export function markObserved(res: ServerResponse): void {
  (res as Noted)[OBSERVED] = true;
}

export function isObserved(res: ServerResponse): boolean {
  return (res as Noted)[OBSERVED] === true;
}

/** The code of the Error object sent with this response, for its log line. */
export function noteErrorCode(res: ServerResponse, code: ErrorCode): void {
  (res as Noted)[ERROR_CODE] = code;
}

export function errorCodeOf(res: ServerResponse): ErrorCode | undefined {
  return (res as Noted)[ERROR_CODE];
}

/**
 * This response's request was answered by an Error object written straight to its connection (a
 * timeout, a shutdown): its status and code are that answer's, and nothing else may answer it.
 */
export function noteRawAnswer(res: ServerResponse, status: number, code: ErrorCode): void {
  res.statusCode = status;
  (res as Noted)[ERROR_CODE] = code;
  (res as Noted)[ANSWERED_RAW] = true;
}

export function answeredRaw(res: ServerResponse): boolean {
  return (res as Noted)[ANSWERED_RAW] === true;
}
