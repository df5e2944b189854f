import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ErrorFormat } from '../contract/error-format.js';
import type { ApiError } from '../errors/api-error.js';
import type { Logger } from '../log/logger.js';
import type { HttpMetrics } from '../metrics/metrics.js';
import { DEFAULT_LINGER, lingeringClose, type LingerLimits } from './lingering-close.js';
import { REQUEST_ID_HEADER, requestIdOf } from './middleware/request-id.js';
import { SECURITY_HEADERS } from './middleware/security-headers.js';
import { contextOf, noteRawAnswer } from './request-context.js';

/**
 * The error, in the document's format, as a whole HTTP/1.1 response, written straight to a connection that has no
 * Express response to write with: a request Node's parser refused, one that timed out, one cut off
 * by a shutdown. The connection is closed after it, as nothing more on it can be trusted to frame:
 * in stages, so that a client still sending reads the answer (see lingeringClose).
 */
export function writeRawError(
  socket: Duplex,
  error: ApiError,
  format: ErrorFormat,
  requestId: string = randomUUID(),
  linger: LingerLimits = DEFAULT_LINGER,
): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = format.render(error);
  const headers: Record<string, string> = {
    Date: new Date().toUTCString(),
    ...SECURITY_HEADERS,
    [REQUEST_ID_HEADER]: requestId,
    ...error.headers,
    'Content-Type': format.contentType,
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  const head = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.write(`${head.join('\r\n')}\r\n\r\n${body}`);
  lingeringClose(socket, linger);
}

/** The request being answered, where there is one: its X-Request-Id is reused, its log line reports the answer. */
export interface RawErrorContext {
  req?: IncomingMessage;
  res?: ServerResponse;
  /** How the connection is closed after the answer, when not as the writer's options say. */
  linger?: LingerLimits;
}

export type RawErrorWriter = (socket: Duplex, error: ApiError, context?: RawErrorContext) => void;

export interface RawErrorWriterOptions {
  requestIdPattern: RegExp;
  /** The document's error format (contract.errorFormat). */
  errorFormat: ErrorFormat;
  logger?: Logger;
  metrics?: HttpMetrics;
  /** How the connection is closed after the answer; DEFAULT_LINGER otherwise. */
  linger?: LingerLimits;
}

/**
 * writeRawError, accounted for like every other answer: the response carries the request's id
 * (the one it was given, when the request got that far; else the client's, when usable; else a
 * new one), the error is counted by code, and it is logged: by the request's own log line when the
 * app had begun with it, otherwise by a line of its own.
 */
export function rawErrorWriter({ requestIdPattern, errorFormat, logger, metrics, linger }: RawErrorWriterOptions): RawErrorWriter {
  return (socket, error, { req, res, linger: closing = linger } = {}) => {
    const requestId = requestIdOf(req, res, requestIdPattern);
    metrics?.countError(error.code);
    if (res && contextOf(res).observed) noteRawAnswer(res, error.status, error.code);
    else logger?.info({ reqId: requestId, status: error.status, code: error.code }, 'request rejected');
    writeRawError(socket, error, errorFormat, requestId, closing);
  };
}
