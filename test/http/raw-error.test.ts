import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
import { apiError } from '../../src/errors/api-error.js';
import { rawErrorWriter, writeRawError } from '../../src/http/raw-error.js';
import { contextOf } from '../../src/http/request-context.js';
import { Metrics } from '../../src/metrics/metrics.js';
import { capturingLogger } from '../support/log-capture.js';

/** What was written to a socket, once it closed: the status line, the headers (lower-case names) and the body. */
async function written(socket: PassThrough): Promise<{ statusLine: string; headers: Record<string, string>; body: string }> {
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  await new Promise((resolve) => socket.once('close', resolve));
  const [head, body] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n');
  const [statusLine, ...lines] = head!.split('\r\n');
  const headers = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 2)]),
  );
  return { statusLine: statusLine!, headers, body: body! };
}

const { errorFormat } = loadContract();

describe('writeRawError', () => {
  it('writes the Error object as a whole HTTP/1.1 response that closes the connection', async () => {
    const socket = new PassThrough();
    const written: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => written.push(chunk));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    writeRawError(socket, apiError('request_timeout', { part: 'headers' }), errorFormat);
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
    writeRawError(socket, apiError('internal_error'), errorFormat);
    expect(socket.destroyed).toBe(true);
  });

  it('carries the request id it is given, or a new one', async () => {
    const given = new PassThrough();
    const out = written(given);
    writeRawError(given, apiError('internal_error'), errorFormat, 'abc-1');
    expect((await out).headers['x-request-id']).toBe('abc-1');
    const generated = new PassThrough();
    const out2 = written(generated);
    writeRawError(generated, apiError('internal_error'), errorFormat);
    expect((await out2).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('rawErrorWriter', () => {
  const { requestIdPattern } = loadContract();

  it('counts the error, logs it with the id it sends when no request line will, and reuses a usable client id', async () => {
    const capture = capturingLogger();
    const metrics = new Metrics({ processMetrics: false });
    const write = rawErrorWriter({ requestIdPattern, errorFormat, logger: capture.logger, metrics });
    const socket = new PassThrough();
    const out = written(socket);
    const req = new IncomingMessage(new Socket());
    req.headers['x-request-id'] = 'client-7';
    write(socket, apiError('expectation_failed'), { req });
    expect((await out).headers['x-request-id']).toBe('client-7');
    expect(capture.lines).toEqual([
      expect.objectContaining({ msg: 'request rejected', reqId: 'client-7', status: 417, code: 'expectation_failed' }),
    ]);
    expect(await metrics.registry.metrics()).toContain('http_server_error_responses_total{code="expectation_failed"} 1');
  });

  it("leaves the log line to the request's own when the app had begun with it, noting the answer there", async () => {
    const capture = capturingLogger();
    const write = rawErrorWriter({ requestIdPattern, errorFormat, logger: capture.logger });
    const req = new IncomingMessage(new Socket());
    const res = new ServerResponse(req);
    // As the request id and request log middleware leave it.
    Object.assign(contextOf(res), { requestId: 'assigned-1', observed: true });
    const socket = new PassThrough();
    const out = written(socket);
    write(socket, apiError('request_timeout', { part: 'request' }), { req, res });
    expect((await out).headers['x-request-id']).toBe('assigned-1');
    expect(capture.lines).toEqual([]);
    expect([res.statusCode, contextOf(res).errorCode]).toEqual([408, 'request_timeout']);
  });
});
