import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { apiError } from '../../src/errors/api-error.js';
import { writeRawError } from '../../src/http/raw-error.js';

describe('writeRawError', () => {
  it('writes the Error object as a whole HTTP/1.1 response that closes the connection', async () => {
    const socket = new PassThrough();
    const written: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => written.push(chunk));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    writeRawError(socket, apiError('request_timeout', { part: 'headers' }));
    await closed;
    const [head, body] = Buffer.concat(written).toString('utf8').split('\r\n\r\n');
    const [statusLine, ...lines] = head!.split('\r\n');
    expect(statusLine).toBe('HTTP/1.1 408 Request Timeout');
    const headers = Object.fromEntries(
      lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 2)]),
    );
    expect(headers).toMatchObject({
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(body!)),
      connection: 'close',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    });
    expect(JSON.parse(body!)).toEqual({ code: 'request_timeout', status: 408, message: 'The request headers did not arrive in time.' });
  });

  it('only closes a connection it can no longer write to', () => {
    const socket = new PassThrough();
    socket.end();
    writeRawError(socket, apiError('internal_error'));
    expect(socket.destroyed).toBe(true);
  });
});
