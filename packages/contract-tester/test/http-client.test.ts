import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, credentialHeaders, NoResponseError, retryAfterMs, targetWithKey } from '../src/http-client.js';
import { testRequest } from './support/tester-session.js';

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
    const client = new ApiClient(baseUrl, 'psk_key');
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
        credentials: { kind: 'key', schemes: [{ type: 'bearer' }] },
        body,
      }),
    );
    client.close();
    expect(response).toMatchObject({ status: 200, body: { ok: true }, text: '{"ok":true}' });
    expect(client.sent).toBe(1);
    const [received] = seen;
    expect(received).toMatchObject({ method: 'PATCH', url: '/v1/pets/%2B1?x=%FF', body });
    const pairs = received!.rawHeaders.flatMap((value, index, all) => (index % 2 ? [] : [`${value}: ${all[index + 1]}`]));
    expect(pairs.slice(0, 4)).toEqual([`Host: ${new URL(baseUrl).host}`, 'X-One: 1', 'x-one: 2', 'Authorization: Bearer psk_key']);
  });

  it('puts the key where the scheme says, or sends the given headers', () => {
    const keyed = request({
      credentials: {
        kind: 'key',
        schemes: [
          { type: 'apiKey', in: 'header', name: 'X-Key' },
          { type: 'apiKey', in: 'query', name: 'key' },
        ],
      },
    });
    expect(credentialHeaders(keyed, 'k')).toEqual([{ name: 'X-Key', value: 'k' }]);
    expect(targetWithKey(keyed, 'k&1')).toBe('/v1/pets?key=k%261');
    expect(
      credentialHeaders(request({ credentials: { kind: 'headers', headers: [{ name: 'Authorization', value: 'Basic x' }] } }), 'k'),
    ).toEqual([{ name: 'Authorization', value: 'Basic x' }]);
    expect(credentialHeaders(keyed, undefined)).toEqual([]);
  });

  it('says when a JSON body is not JSON', async () => {
    const client = new ApiClient(baseUrl, undefined);
    const response = await client.send(request({ target: '/v1/broken-json' }));
    client.close();
    expect(response.body).toBeUndefined();
    expect(response.bodyError).toMatch(/^the body is not JSON/);
  });

  it('goes on after the server closes a kept-alive connection', async () => {
    const client = new ApiClient(baseUrl, undefined);
    for (let round = 0; round < 3; round += 1) {
      expect((await client.send(request({ target: '/v1/close' }))).status).toBe(204);
      expect((await client.send(request({}))).status).toBe(200);
    }
    client.close();
  });

  it('waits out a 429 for its Retry-After and sends again, at most three times', async () => {
    const client = new ApiClient(baseUrl, undefined);
    seen.length = 0;
    expect((await client.send(request({ target: '/v1/limited' }))).status).toBe(200);
    expect(client.sent).toBe(3);
    client.close();
    expect(retryAfterMs('5')).toBe(5000);
    expect(retryAfterMs(new Date(Date.UTC(2026, 0, 1, 0, 0, 30)).toUTCString(), Date.UTC(2026, 0, 1))).toBe(30_000);
    expect(retryAfterMs('3600')).toBeUndefined();
    expect(retryAfterMs(undefined)).toBeUndefined();
  });

  it('tells a deployment that does not answer', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const client = new ApiClient(`http://127.0.0.1:${port}/v1`, undefined);
    await expect(client.send(request({}))).rejects.toBeInstanceOf(NoResponseError);
    client.close();
  });
});
