import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/contract.js';
import { chooseRequestId, traceIdOf } from '../../../src/http/middleware/request-id.js';
import { backends } from '../../support/backends.js';
import { capturingLogger } from '../../support/log-capture.js';
import { RawConnection, rawRequest } from '../../support/raw-http.js';
import { createTestApi } from '../../support/test-app.js';

const { requestIdPattern } = loadContract();
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('choosing the request id', () => {
  it.each(['a', 'abc.123_X-y', '7b0c2f4e-5a8d-4c3b-9e21-0f6a1d2c3b4a', 'x'.repeat(128)])('keeps %s', (given) => {
    expect(chooseRequestId(given, requestIdPattern)).toBe(given);
  });

  it.each([
    ['too long', 'x'.repeat(129)],
    ['empty', ''],
    ['a space', 'a b'],
    ['a slash', 'a/b'],
    ['a colon', 'a:b'],
    ['non-ASCII', 'ä'],
    ['a line break', 'a\nb'],
    ['sent twice (joined by Node)', 'a, b'],
    ['absent', undefined],
    ['several', ['a', 'b']],
  ])('replaces one that is %s with a new UUID', (_label, given) => {
    const chosen = chooseRequestId(given, requestIdPattern);
    expect(chosen).toMatch(UUID);
    expect(chooseRequestId(given, requestIdPattern)).not.toBe(chosen);
  });
});

describe('the trace id of a W3C traceparent', () => {
  const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
  it.each([
    [`00-${traceId}-00f067aa0ba902b7-01`, traceId],
    [`00-${traceId}-00f067aa0ba902b7-00`, traceId],
    // A later version: read as far as this version goes; more after a dash is allowed.
    [`01-${traceId}-00f067aa0ba902b7-01`, traceId],
    [`cc-${traceId}-00f067aa0ba902b7-09-what-comes-next`, traceId],
  ])('reads %s', (header, expected) => {
    expect(traceIdOf(header)).toBe(expected);
  });

  it.each([
    ['absent', undefined],
    ['empty', ''],
    ['version ff', `ff-${traceId}-00f067aa0ba902b7-01`],
    ['an all-zero trace id', `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`],
    ['an all-zero parent id', `00-${traceId}-0000000000000000-01`],
    ['upper case', `00-${traceId.toUpperCase()}-00f067aa0ba902b7-01`],
    ['a short trace id', `00-${traceId.slice(1)}-00f067aa0ba902b7-01`],
    ['a long parent id', `00-${traceId}-00f067aa0ba902b7a-01`],
    ['version 00 with more after the flags', `00-${traceId}-00f067aa0ba902b7-01-extra`],
    ['a later version with more not after a dash', `01-${traceId}-00f067aa0ba902b7-01extra`],
    ['one-digit flags', `00-${traceId}-00f067aa0ba902b7-1`],
    ['no dashes', `00${traceId}00f067aa0ba902b701`],
    ['sent twice (joined by Node)', `00-${traceId}-00f067aa0ba902b7-01, 00-${traceId}-00f067aa0ba902b7-01`],
    ['several', [`00-${traceId}-00f067aa0ba902b7-01`]],
  ])('ignores one that is %s', (_label, header) => {
    expect(traceIdOf(header)).toBeUndefined();
  });
});

describe.each(backends)('X-Request-Id over HTTP [$name]', (backend) => {
  it('echoes a usable id on success and on every kind of error', async () => {
    const t = await createTestApi({ backend });
    const id = 'client-17.retry_2';
    const cases = [
      t.api.get('/v1/pets').set(t.auth).set('X-Request-Id', id).expect(200),
      t.api.post('/v1/pets').set(t.auth).set('X-Request-Id', id).send({ name: 'Rex', categoryId: 3 }).expect(201),
      t.api.get('/v1/pets').set('X-Request-Id', id).expect(401),
      t.api.get('/v1/pets?limit=0').set(t.auth).set('X-Request-Id', id).expect(400),
      t.api.get('/v1/pets/99').set(t.auth).set('X-Request-Id', id).expect(404),
      t.api.get('/v1/nowhere').set(t.auth).set('X-Request-Id', id).expect(404),
      t.api.delete('/v1/pets').set(t.auth).set('X-Request-Id', id).expect(405),
      t.api.post('/v1/pets').set(t.auth).set('X-Request-Id', id).set('Content-Type', 'text/plain').send('x').expect(415),
      t.api.post('/v1/store/orders').set(t.auth).set('X-Request-Id', id).send({ petId: 99, quantity: 1 }).expect(422),
      t.api.get('/healthz').set('X-Request-Id', id).expect(200),
      t.api.head('/v1/pets').set(t.auth).set('X-Request-Id', id).expect(200),
    ];
    for (const res of await Promise.all(cases)) expect(res.headers['x-request-id']).toBe(id);
  });

  it.each([
    ['too long', 'x'.repeat(129)],
    ['with characters outside the pattern', 'id with spaces'],
    ['with a semicolon', 'a;b'],
  ])('answers a request whose id is %s with an id of its own', async (_label, given) => {
    const t = await createTestApi({ backend });
    const res = await t.api.get('/v1/pets').set(t.auth).set('X-Request-Id', given).expect(200);
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('gives every request without an id one of its own, errors included', async () => {
    const t = await createTestApi({ backend });
    const ids = [
      (await t.api.get('/v1/pets').set(t.auth).expect(200)).headers['x-request-id'],
      (await t.api.get('/v1/pets').expect(401)).headers['x-request-id'],
      (await t.api.get('/nowhere').expect(404)).headers['x-request-id'],
    ];
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(3);
  });

  it("puts the id in the request's log line, with the trace id of a valid traceparent", async () => {
    const capture = capturingLogger();
    const t = await createTestApi({ backend, logger: capture.logger });
    await t.api
      .get('/v1/pets')
      .set(t.auth)
      .set('X-Request-Id', 'abc')
      .set('traceparent', '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01')
      .expect(200);
    const generated = (await t.api.get('/v1/pets').set('traceparent', 'garbage').expect(401)).headers['x-request-id'];
    await new Promise((resolve) => setImmediate(resolve));
    const lines = capture.lines.filter((line) => line['msg'] === 'request completed');
    expect(lines[0]).toMatchObject({ reqId: 'abc', traceId: '4bf92f3577b34da6a3ce929d0e0e4736' });
    expect(lines[1]).toMatchObject({ reqId: generated });
    expect(lines[1]).not.toHaveProperty('traceId');
  });
});

describe.each(backends)('X-Request-Id on answers written below Express [$name]', (backend) => {
  const timeouts = { headersTimeoutMs: 300, requestTimeoutMs: 600, keepAliveTimeoutMs: 5000 };

  it('gives a request the parser refused an id of its own, and logs the answer with it', async () => {
    const capture = capturingLogger();
    const t = await createTestApi({ backend, logger: capture.logger });
    const res = await rawRequest(t.origin, 'GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Request-Id: mine\r\nX Y: a\r\n\r\n', { closes: true });
    expect(res.status).toBe(400);
    expect(res.headers['x-request-id']).toMatch(UUID);
    await new Promise((resolve) => setImmediate(resolve));
    expect(capture.lines.find((line) => line['msg'] === 'request rejected')).toMatchObject({
      reqId: res.headers['x-request-id'],
      status: 400,
      code: 'bad_request',
    });
  });

  it('echoes the id of a request whose body is late (408), and its own log line reports the 408', async () => {
    const capture = capturingLogger();
    const t = await createTestApi({ backend, timeouts, logger: capture.logger });
    // The request's line is written when the server's side of the connection has closed, which
    // comes after the client's (the server closes in stages after the answer).
    const serverSide = new Promise<Socket>((resolve) => t.server.once('connection', resolve));
    const connection = await RawConnection.open(t.origin);
    const serverClosed = new Promise((resolve) => void serverSide.then((socket) => socket.once('close', resolve)));
    connection.write(
      `POST /v1/pets HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.auth.Authorization}\r\nX-Request-Id: slow-1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"na`,
    );
    const res = await connection.response();
    expect(res.status).toBe(408);
    expect(res.headers['x-request-id']).toBe('slow-1');
    await connection.closed;
    await serverClosed;
    await new Promise((resolve) => setImmediate(resolve));
    const lines = capture.lines.filter((line) => line['reqId'] === 'slow-1');
    expect(lines).toEqual([expect.objectContaining({ msg: 'request completed', status: 408, code: 'request_timeout' })]);
  });

  it('echoes the id of a request whose expectation it cannot meet (417)', async () => {
    const t = await createTestApi({ backend });
    const res = await rawRequest(
      t.origin,
      'POST /v1/pets HTTP/1.1\r\nHost: x\r\nX-Request-Id: exp-1\r\nExpect: magic\r\nContent-Length: 0\r\n\r\n',
      {
        closes: true,
      },
    );
    expect(res.status).toBe(417);
    expect(res.headers['x-request-id']).toBe('exp-1');
  });

  it('gives headers that never arrive in full (408) an id of its own', async () => {
    const t = await createTestApi({ backend, timeouts });
    const connection = await RawConnection.open(t.origin);
    connection.write('GET /v1/pets HTTP/1.1\r\nHost: x\r\nX-Request-Id: never-seen\r\n');
    const res = await connection.response();
    expect(res.status).toBe(408);
    expect(res.headers['x-request-id']).toMatch(UUID);
    await connection.closed;
  });
});
