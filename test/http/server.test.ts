import { IncomingMessage, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import express from 'express';
import { beforeEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
import { serverFor } from '../../src/http/server.js';
import { backends } from '../support/backends.js';
import { RawConnection, rawRequest } from '../support/raw-http.js';
import { createTestApi, type TestApi } from '../support/test-app.js';

const contract = loadContract();

/** The methods openapi.yaml gives `path` (HEAD wherever GET is), as Allow lists them. */
function methodsOf(path: string): string[] {
  const methods = contract.operations.filter((entry) => entry.path === path).map((entry) => entry.method.toUpperCase());
  return methods.includes('GET') ? [...methods, 'HEAD'] : methods;
}

/**
 * Writes `head`, then a body of `size` bytes as fast as the connection takes it; resolves once the
 * last byte is written, rejects if the connection breaks first.
 */
function sendInFull(socket: Socket, head: string, size: number): Promise<void> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('close', () => reject(new Error('the connection closed before the body was sent')));
    socket.write(head);
    const chunk = Buffer.alloc(1024 * 1024, 0x20);
    let left = size;
    const pump = () => {
      while (left > 0) {
        const part = chunk.subarray(0, Math.min(left, chunk.length));
        left -= part.length;
        if (left === 0) socket.write(part, (error) => (error ? reject(error) : resolve()));
        else if (!socket.write(part)) return void socket.once('drain', pump);
      }
    };
    pump();
  });
}

describe('the HTTP server', () => {
  it("builds requests and responses with Express's prototypes from the start", async () => {
    const app = express();
    const seen: { request?: object; response?: object } = {};
    app.get('/', (req, res) => {
      seen.request = Object.getPrototypeOf(req) as object;
      seen.response = Object.getPrototypeOf(res) as object;
      res.end('ok');
    });
    const server = serverFor(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok');
    } finally {
      server.close();
    }
    expect(seen.request).toBe(app.request);
    expect(seen.response).toBe(app.response);
    // Still Node's own request and response underneath.
    expect(app.request).toBeInstanceOf(IncomingMessage);
    expect(app.response).toBeInstanceOf(ServerResponse);
  });

  it('serves the whole API, as production builds it (createHttpServer)', async () => {
    const t = await createTestApi();
    await t.api.post('/v1/pets').set(t.auth).send({ name: 'Rex', categoryId: 3 }).expect(201);
    await t.api.get('/v1/pets/1').set(t.auth).expect(200);
    await t.api.get('/healthz').expect(200);
  });
});

describe.each(backends)('answers from below Express, as the Error object [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend, timeouts: { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 5000 } });
  });

  it.each([
    ['an unknown method', 'FOO /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'bad_request'],
    ['a method in lower case', 'get /v1/pets HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'bad_request'],
    ['a target that is no path', 'GET v1/pets HTTP/1.1\r\nHost: x\r\n\r\n', 400, 'bad_request'],
    [
      'Content-Length with Transfer-Encoding',
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      'bad_request',
    ],
    ['a Content-Length that is no number', 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400, 'bad_request'],
    ['two Content-Lengths', 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab', 400, 'bad_request'],
    ['a Transfer-Encoding other than chunked', 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n', 400, 'bad_request'],
    ['a header name with a space', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nX Y: a\r\n\r\n', 400, 'bad_request'],
    ['NUL in a header value', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nX: a\u0000b\r\n\r\n', 400, 'bad_request'],
    ['a folded header line', 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nX: a\r\n b\r\n\r\n', 400, 'bad_request'],
    ['bare LF line ends', 'GET /v1/pets HTTP/1.1\nHost: x\n\n', 400, 'bad_request'],
    ['a bare LF after a header', 'GET /v1/pets HTTP/1.1\r\nHost: x\nX: y\r\n\r\n', 400, 'bad_request'],
    ['a bare CR as line end', 'GET /v1/pets HTTP/1.1\rHost: x\r\r', 400, 'bad_request'],
    ['text after the version', 'GET /v1/pets HTTP/1.1 x\r\nHost: x\r\n\r\n', 400, 'bad_request'],
    ['HTTP/1.2', 'GET /v1/pets HTTP/1.2\r\nHost: x\r\n\r\n', 505, 'http_version_not_supported'],
    ['HTTP/0.9', 'GET /v1/pets HTTP/0.9\r\nHost: x\r\n\r\n', 505, 'http_version_not_supported'],
    ['the HTTP/2 preface', 'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n', 505, 'http_version_not_supported'],
    ['headers over 16 KiB', `GET /v1/pets HTTP/1.1\r\nHost: x\r\nX: ${'a'.repeat(20_000)}\r\n\r\n`, 431, 'headers_too_large'],
    ['a target over 16 KiB', `GET /v1/pets/${'1'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`, 414, 'uri_too_long'],
    ['an unmet expectation', 'POST /v1/pets HTTP/1.1\r\nHost: x\r\nExpect: magic\r\nContent-Length: 0\r\n\r\n', 417, 'expectation_failed'],
    // This server is no proxy: a host and port is no target it has.
    ['CONNECT to an authority', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 400, 'bad_request'],
  ])('answers %s with %i %s and closes the connection', async (_label, data, status, code) => {
    const res = await rawRequest(t.origin, data, { closes: true });
    expect(res.status).toBe(status);
    expect(res.body).toMatchObject({ code, status });
    expect(res.headers['connection']).toBe('close');
  });

  it('answers headers that do not arrive in time with 408 and closes', async () => {
    const connection = await RawConnection.open(t.origin);
    connection.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n');
    const res = await connection.response();
    expect(res.body).toEqual({ code: 'request_timeout', status: 408, message: 'The request headers did not arrive in time.' });
    await connection.closed;
  });

  it('answers a body that does not arrive in time with 408 and closes', async () => {
    const connection = await RawConnection.open(t.origin);
    connection.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\n${t.auth.Authorization ? `Authorization: ${t.auth.Authorization}\r\n` : ''}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`,
    );
    const res = await connection.response();
    expect(res.body).toEqual({ code: 'request_timeout', status: 408, message: 'The request did not arrive in time.' });
    await connection.closed;
  });

  it('answers a client that half-closes after its requests, in order, then closes (RFC 9112 §9.6)', async () => {
    await t.api.post('/v1/pets').set(t.auth).send({ name: 'Rex', categoryId: 3 }).expect(201);
    const connection = await RawConnection.open(t.origin);
    const body = JSON.stringify({ name: 'Tom', categoryId: 4 });
    const head = `Host: x\r\nAuthorization: ${t.auth.Authorization}\r\n`;
    // Two pipelined requests, then the client's sending side ends: both answers still go out. The
    // create waits on its commit, and on PostgreSQL the read waits on its query too.
    connection.socket.end(
      `POST /v1/pets HTTP/1.1\r\n${head}Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}` +
        `GET /v1/pets/1 HTTP/1.1\r\n${head}\r\n`,
    );
    const created = await connection.response();
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 2, name: 'Tom', categoryId: 4 });
    const read = await connection.response();
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({ id: 1, name: 'Rex', categoryId: 3 });
    await connection.closed;
  });

  it('answers half a request followed by a half-close with 400, as the Error object', async () => {
    const connection = await RawConnection.open(t.origin);
    connection.socket.end(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.auth.Authorization}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`,
    );
    const res = await connection.response();
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'bad_request', status: 400 });
    await connection.closed;
  });

  it('answers CONNECT to a path as any other method: 401 first, then 405 with the methods of the path', async () => {
    const connect = (headers: string, body = '') =>
      rawRequest(t.origin, `CONNECT /v1/pets HTTP/1.1\r\nHost: x\r\n${headers}\r\n${body}`, {
        method: 'CONNECT',
        url: '/v1/pets',
        closes: true,
      });
    expect((await connect('')).body).toMatchObject({ code: 'missing_api_key', status: 401 });
    const authorization = `Authorization: ${t.auth.Authorization}\r\n`;
    // With Content-Length or without: a CONNECT has no content (RFC 9110 §9.3.6).
    for (const [headers, body] of [
      [authorization, ''],
      [`${authorization}Content-Type: application/json\r\nContent-Length: 5\r\n`, 'hello'],
    ] as const) {
      const res = await connect(headers, body);
      expect(res.body).toMatchObject({ code: 'method_not_allowed', status: 405 });
      expect(res.headers['allow']?.split(', ').sort()).toEqual(methodsOf('/pets').sort());
      expect(res.headers['connection']).toBe('close');
    }
  });

  it('lets a client that sends an over-limit body in full, without Expect, read the 413 (RFC 9112 §9.6)', async () => {
    const connection = await RawConnection.open(t.origin);
    // As many clients do, it writes the whole request before it reads anything.
    connection.socket.pause();
    // Far more than the kernel buffers on both sides hold: the server must read it for it to be sent.
    const size = 64 * 1024 * 1024;
    await sendInFull(
      connection.socket,
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.auth.Authorization}\r\nContent-Type: application/json\r\nContent-Length: ${size}\r\n\r\n`,
      size,
    );
    connection.socket.resume();
    const res = await connection.response();
    expect(res.body).toEqual({
      code: 'payload_too_large',
      status: 413,
      message: `The request body is larger than ${contract.maxRequestBodyBytes} bytes.`,
    });
    expect(res.headers['connection']).toBe('close');
    await connection.closed;
  });

  it('serves nothing sent after the answer to a refused body: the connection closes', async () => {
    const connection = await RawConnection.open(t.origin);
    const head = `Host: x\r\nAuthorization: ${t.auth.Authorization}\r\nContent-Type: application/json\r\n`;
    const size = contract.maxRequestBodyBytes + 1;
    connection.write(`POST /v1/pets HTTP/1.1\r\n${head}Content-Length: ${size}\r\n\r\n{"name":`);
    expect((await connection.response()).status).toBe(413);
    const body = JSON.stringify({ name: 'Rex', categoryId: 3 });
    connection.write(`${' '.repeat(size - 8)}POST /v1/pets HTTP/1.1\r\n${head}Content-Length: ${body.length}\r\n\r\n${body}`);
    await connection.closed;
    await expect(connection.response()).rejects.toThrow(/closed before a response/);
    expect(await t.storage.listPets({ limit: 10 })).toEqual([]);
  });

  it('carries out a request pipelined after a refused body only if it answers it', async () => {
    const connection = await RawConnection.open(t.origin);
    const head = `Host: x\r\nAuthorization: ${t.auth.Authorization}\r\nContent-Type: application/json\r\n`;
    const body = JSON.stringify({ name: 'Rex', categoryId: 3 });
    // More than Node buffers for a request nobody reads, in one write: whether the whole body has
    // arrived when the 413 goes out (the connection is kept) or not (it closes) depends on timing.
    const size = 2 * contract.maxRequestBodyBytes;
    connection.write(
      `POST /v1/pets HTTP/1.1\r\n${head}Content-Length: ${size}\r\n\r\n${' '.repeat(size)}` +
        `POST /v1/pets HTTP/1.1\r\n${head}Content-Length: ${body.length}\r\n\r\n${body}`,
    );
    const refused = await connection.response();
    expect(refused.status).toBe(413);
    const answered = refused.headers['connection'] === 'close' ? [] : [await connection.response()];
    if (answered.length === 0) await connection.closed;
    connection.close();
    expect(answered.map(({ status }) => status)).toEqual((await t.storage.listPets({ limit: 10 })).map(() => 201));
  });

  it('cuts off a client that keeps sending after the answer, past the bytes it may send', async () => {
    const small = await createTestApi({ backend, linger: { ms: 60_000, bytes: 1024 * 1024 } });
    // Half-open allowed: the server's half-close after its answer does not stop it sending.
    const socket = connect({ port: Number(new URL(small.origin).port), host: '127.0.0.1', allowHalfOpen: true });
    socket.on('error', () => {});
    const closed = new Promise((resolve) => socket.once('close', resolve));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    socket.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${small.auth.Authorization}\r\nContent-Type: application/json\r\nContent-Length: ${Number.MAX_SAFE_INTEGER}\r\n\r\n`,
    );
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const pump = () => {
      while (!socket.destroyed && socket.write(chunk));
      if (!socket.destroyed) socket.once('drain', pump);
    };
    pump();
    await closed;
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
  });

  it('answers pipelined requests in order, a malformed one last, then closes', async () => {
    const connection = await RawConnection.open(t.origin);
    connection.write(
      `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.auth.Authorization}\r\n\r\nGET /v1/pets HTTP/1.1\nHost: x\n\n`,
    );
    expect((await connection.response()).status).toBe(200);
    expect((await connection.response()).body).toMatchObject({ code: 'bad_request', status: 400 });
    await connection.closed;
  });

  it('answers an unmet expectation pipelined after another request, in turn', async () => {
    const connection = await RawConnection.open(t.origin);
    connection.write(
      `GET /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.auth.Authorization}\r\n\r\nPOST /v1/pets HTTP/1.1\r\nHost: x\r\nExpect: magic\r\nContent-Length: 0\r\n\r\n`,
    );
    expect((await connection.response()).status).toBe(200);
    expect((await connection.response()).body).toMatchObject({ code: 'expectation_failed', status: 417 });
    await connection.closed;
    await t.api.get('/healthz').expect(200);
  });

  it.each([
    ['Connection: close', 'HTTP/1.1', 'Connection: close\r\n'],
    ['HTTP/1.0', 'HTTP/1.0', ''],
  ])('answers a request with %s, then closes, serving nothing sent after it (RFC 9112 §9.6)', async (_label, version, header) => {
    const connection = await RawConnection.open(t.origin);
    const body = JSON.stringify({ name: 'Rex', categoryId: 3 });
    connection.write(
      `GET /v1/pets ${version}\r\nHost: x\r\nAuthorization: ${t.auth.Authorization}\r\n${header}\r\n` +
        `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.auth.Authorization}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
    );
    expect((await connection.response()).status).toBe(200);
    await connection.closed;
    await expect(connection.response()).rejects.toThrow(/closed before a response/);
    expect(await t.storage.listPets({ limit: 10 })).toEqual([]);
  });

  it('closes a connection that sends nothing', async () => {
    const connection = await RawConnection.open(t.origin);
    const res = await connection.response();
    expect(res.status).toBe(408);
    await connection.closed;
  });
});

describe('connections that send nothing, or half a request', () => {
  // No storage is involved: one backend is enough.
  it('are each answered 408 and closed by the headers timeout, 2,000 idle and 500 half-sent at once', async () => {
    const t = await createTestApi({ timeouts: { headersTimeoutMs: 500, requestTimeoutMs: 1000, keepAliveTimeoutMs: 5000 } });
    // All at once: the server accepts none of them until every connect has been issued, as a busy
    // server does not.
    const opening = Array.from({ length: 2500 }, () => RawConnection.open(t.origin));
    const connections = await Promise.all(opening);
    for (const connection of connections.slice(2000)) connection.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\n');
    await Promise.all(
      connections.map(async (connection) => {
        const res = await connection.response();
        expect(res.body).toEqual({ code: 'request_timeout', status: 408, message: 'The request headers did not arrive in time.' });
        await connection.closed;
      }),
    );
  });
});
