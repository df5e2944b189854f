import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ApiError } from '../errors/api-error.js';
import { SECURITY_HEADERS } from './middleware/security-headers.js';

/**
 * The Error object as a whole HTTP/1.1 response, written straight to a connection that has no
 * Express response to write with: a request Node's parser refused, one that timed out, one cut off
 * by a shutdown. The connection is closed after it, as nothing more on it can be trusted to frame.
 */
export function writeRawError(socket: Duplex, error: ApiError): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = JSON.stringify(error.toBody());
  const headers: Record<string, string> = {
    Date: new Date().toUTCString(),
    ...SECURITY_HEADERS,
    ...error.headers,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  const head = [
    `HTTP/1.1 ${error.status} ${STATUS_CODES[error.status] ?? ''}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  // end() closes the writing side once the response is flushed; a client that keeps sending would
  // keep the socket half-open, so it goes away once the response is out.
  socket.once('finish', () => socket.destroy());
}
