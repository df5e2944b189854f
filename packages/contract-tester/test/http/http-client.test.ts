import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential } from '../../src/generate/requests.js';
import { Credentials } from '../../src/http/credentials.js';
import { ApiClient, NoResponseError, retryAfterMs, type ExchangeRecord } from '../../src/http/http-client.js';
import { BEARER as bearer, testRequest } from '../support/tester-session.js';

interface Seen {
  method: string;
  url: string;
  rawHeaders: string[];
  body: Buffer;
}

let server: Server;
let baseUrl: string;
const seen: Seen[] = [];

async function read(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

beforeAll(async () => {
  server = createServer((request, response) => void answer(request, response));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});

async function answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const body = await read(request);
  seen.push({ method: request.method!, url: request.url!, rawHeaders: request.rawHeaders, body });
  if (request.url === '/v1/broken-json') {
    response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"a":');
  } else if (request.url === '/v1/limited' && seen.filter(({ url }) => url === '/v1/limited').length < 3) {
    response.writeHead(429, { 'Retry-After': '0' }).end();
  } else if (request.url === '/v1/big') {
    response.writeHead(200, { 'Content-Type': 'application/json' }).end('{"id":9007199254740993,"n":[2,9223372036854775807],"x":1.5}');
  } else if (request.url === '/v1/close') {
    response.writeHead(204, { Connection: 'close' }).end();
  } else {
    response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify({ ok: true }));
  }
}

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const request = testRequest;

describe('the client of the deployment', () => {
  it('sends exactly the request built: method, target, headers in order, body bytes; and counts it', async () => {
    const client = new ApiClient(baseUrl, new Credentials({ apiKey: 'psk_key', headers: [{ name: 'X-Tenant', value: 't' }] }));
    const records: ExchangeRecord[] = [];
    client.onExchange = (record) => records.push(record);
    seen.length = 0;
    const body = Buffer.from([0x7b, 0xff, 0x7d]);
    const response = await client.send(
      request({
        method: 'PATCH',
        target: '/v1/pets/%2B1?x=%FF',
        headers: [
          { name: 'X-One', value: '1' },
          { name: 'x-one', value: '2' },
        ],
        credentials: { kind: 'valid', credentials: [bearer] },
        body,
      }),
    );
    client.close();
    expect(response).toMatchObject({ status: 200, body: { ok: true }, text: '{"ok":true}' });
    expect(response.elapsedMs).toBeGreaterThan(0);
    expect(client.sent).toBe(1);
    const [received] = seen;
    expect(received).toMatchObject({ method: 'PATCH', url: '/v1/pets/%2B1?x=%FF', body });
    const pairs = received!.rawHeaders.flatMap((value, index, all) => (index % 2 ? [] : [`${value}: ${all[index + 1]}`]));
    expect(pairs.slice(0, 5)).toEqual([
      `Host: ${new URL(baseUrl).host}`,
      'X-One: 1',
      'x-one: 2',
      'Authorization: Bearer psk_key',
      'X-Tenant: t',
    ]);
    // What a report records has the secret's variable, never the secret.
    expect(records).toHaveLength(1);
    expect(records[0]!.headers).toContainEqual({ name: 'Authorization', value: 'Bearer $CONTRACT_TEST_API_KEY' });
    expect(JSON.stringify(records[0]!.headers)).not.toContain('psk_key');
  });

  it('puts each credential where its scheme says, secrets in a query encoded', async () => {
    const client = new ApiClient(baseUrl, new Credentials({ security: { q: 'k&1', c: 'cv' } }));
    seen.length = 0;
    const query: Credential = { scheme: 'q', place: 'query', name: 'key', prefix: '', variable: 'CONTRACT_TEST_SECURITY_Q' };
    const cookie: Credential = { scheme: 'c', place: 'cookie', name: 'session', prefix: '', variable: 'CONTRACT_TEST_SECURITY_C' };
    await client.send(
      request({ headers: [{ name: 'Cookie', value: 'a=1' }], credentials: { kind: 'valid', credentials: [query, cookie] } }),
    );
    await client.send(
      request({ credentials: { kind: 'forged', headers: [{ name: 'X-Key', value: 'forged' }], query: [['key', 'nope']] } }),
    );
    client.close();
    expect(seen[0]!.url).toBe('/v1/pets?key=k%261');
    expect(seen[0]!.rawHeaders.filter((_, index, all) => all[index - 1] === 'Cookie')).toEqual(['a=1; session=cv']);
    expect(seen[1]!.url).toBe('/v1/pets?key=nope');
    expect(seen[1]!.rawHeaders).toContain('forged');
  });

  it('says when a JSON body is not JSON', async () => {
    const client = new ApiClient(baseUrl);
    const response = await client.send(request({ target: '/v1/broken-json' }));
    client.close();
    expect(response.body).toBeUndefined();
    expect(response.bodyError).toMatch(/^the body is not JSON/);
  });

  it('parses integers past 2^53 exactly', async () => {
    const client = new ApiClient(baseUrl);
    const response = await client.send(request({ target: '/v1/big' }));
    client.close();
    expect(response.body).toEqual({ id: 9007199254740993n, n: [2, 9223372036854775807n], x: 1.5 });
  });

  it('goes on after the server closes a kept-alive connection', async () => {
    const client = new ApiClient(baseUrl);
    for (let round = 0; round < 3; round += 1) {
      expect((await client.send(request({ target: '/v1/close' }))).status).toBe(204);
      expect((await client.send(request({}))).status).toBe(200);
    }
    client.close();
  });

  it('waits out a 429 for its Retry-After and sends again, at most three times', async () => {
    const client = new ApiClient(baseUrl);
    seen.length = 0;
    expect((await client.send(request({ target: '/v1/limited' }))).status).toBe(200);
    expect(client.sent).toBe(3);
    client.close();
    expect(retryAfterMs('5')).toBe(5000);
    expect(retryAfterMs(new Date(Date.UTC(2026, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(30_000);
    expect(retryAfterMs('3600')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  it('waits for no 429 past the run deadline, and counts what it waited and what it did not', async () => {
    const client = new ApiClient(baseUrl);
    seen.length = 0;
    expect((await client.send(request({ target: '/v1/limited' }))).status).toBe(200);
    expect(client.rateLimit).toEqual({ waits: 2, waitedMs: 0, unresolved: 0 });
    const late = new ApiClient(baseUrl);
    late.deadline = performance.now() - 1;
    seen.length = 0;
    expect((await late.send(request({ target: '/v1/limited' }))).status).toBe(429);
    expect(late.sent).toBe(1);
    expect(late.rateLimit).toEqual({ waits: 0, waitedMs: 0, unresolved: 1 });
    client.close();
    late.close();
  });

  it('tells a deployment that does not answer', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = new ApiClient(`http://127.0.0.1:${port}/v1`);
    await expect(client.send(request({}))).rejects.toBeInstanceOf(NoResponseError);
    client.close();
  });
});
