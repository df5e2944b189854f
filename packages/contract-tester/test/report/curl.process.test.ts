import { execFile } from 'node:child_process';
import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Credential } from '../../src/generate/requests.js';
import { Credentials } from '../../src/http/credentials.js';
import { curlCommand, secretVariables, shellQuote } from '../../src/report/curl.js';
import { BEARER as bearer, testRequest } from '../support/tester-session.js';

const held = new Credentials({ apiKey: 'psk_secret', basic: 'ada:pa ss', headers: [{ name: 'X-Session-Token', value: 'st' }] });
const basic: Credential = {
  scheme: 'basicAuth',
  place: 'header',
  name: 'Authorization',
  prefix: 'Basic ',
  variable: 'CONTRACT_TEST_AUTH',
  basic: true,
};
const query: Credential = { scheme: 'q', place: 'query', name: 'api_key', prefix: '', variable: 'CONTRACT_TEST_API_KEY' };

/** A TCP server that keeps each request's bytes and answers 204. */
let server: Server;
let origin: string;
const received: Buffer[] = [];

beforeAll(async () => {
  server = createServer((socket) => {
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      const all = Buffer.concat(chunks);
      const end = all.indexOf('\r\n\r\n');
      if (end < 0) return;
      const length = Number(/content-length: (\d+)/i.exec(all.subarray(0, end).toString('latin1'))?.[1] ?? 0);
      if (all.length < end + 4 + length) return;
      received.push(all);
      socket.end('HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

/** Runs the printed command in bash, and returns the request as the server received it. */
async function sentBy(command: string): Promise<{ head: string; body: Buffer }> {
  received.length = 0;
  await new Promise<void>((resolve, reject) =>
    execFile(
      'bash',
      ['-c', `${command} >/dev/null`],
      {
        env: {
          ...process.env,
          CONTRACT_TEST_API_KEY: 'psk_secret',
          CONTRACT_TEST_AUTH: 'ada:pa ss',
          CONTRACT_TEST_HEADER_X_SESSION_TOKEN: 'st',
        },
      },
      (error) => (error ? reject(new Error(error.message)) : resolve()),
    ),
  );
  const raw = received[0]!;
  const end = raw.indexOf('\r\n\r\n');
  return { head: raw.subarray(0, end).toString('latin1'), body: raw.subarray(end + 4) };
}

const request = testRequest;

describe('failures printed as curl', () => {
  it('send the same method, target, headers and body, with the secrets from the environment', async () => {
    const body = Buffer.from('{"name":"Rex \'the\' dog","categoryId":3}');
    const command = curlCommand(
      origin,
      request({
        method: 'POST',
        target: '/v1//pets/?a=%2B1&b',
        headers: [{ name: 'Content-Type', value: 'application/json' }],
        credentials: { kind: 'valid', credentials: [bearer] },
        body,
      }),
      held,
    );
    expect(command).toContain('"Authorization: Bearer $CONTRACT_TEST_API_KEY"');
    expect(command).toContain('-H "X-Session-Token: $CONTRACT_TEST_HEADER_X_SESSION_TOKEN"');
    expect(command).not.toContain('psk_');
    const sent = await sentBy(command);
    expect(sent.head).toMatch(/^POST \/v1\/\/pets\/\?a=%2B1&b HTTP\/1\.1\r\n/);
    expect(sent.head).toContain('\r\nAuthorization: Bearer psk_secret\r\n');
    expect(sent.head).toContain('\r\nContent-Type: application/json\r\n');
    expect(sent.head).toContain('\r\nX-Session-Token: st\r\n');
    expect(sent.body).toEqual(body);
  });

  it('send HTTP basic with -u, and a key in the query from the environment', async () => {
    const command = curlCommand(origin, request({ credentials: { kind: 'valid', credentials: [basic, query] } }), held);
    expect(command).toContain('-u "$CONTRACT_TEST_AUTH"');
    expect(command).not.toContain('pa ss');
    const sent = await sentBy(command);
    expect(sent.head).toMatch(/^GET \/v1\/pets\?api_key=psk_secret HTTP/);
    expect(sent.head).toContain(`\r\nAuthorization: Basic ${Buffer.from('ada:pa ss').toString('base64')}\r\n`);
    expect(secretVariables(request({ credentials: { kind: 'valid', credentials: [basic, query] } }), held)).toEqual([
      'CONTRACT_TEST_AUTH',
      'CONTRACT_TEST_API_KEY',
      'CONTRACT_TEST_HEADER_X_SESSION_TOKEN',
    ]);
    expect(secretVariables(request({ credentials: { kind: 'none' } }), held)).toEqual([]);
  });

  it('send bytes that are not UTF-8, and NUL, exactly', async () => {
    const body = Buffer.from([0x7b, 0x22, 0xff, 0xed, 0xa0, 0x80, 0x00, 0x25, 0x5c, 0x27, 0x22, 0x7d]);
    const command = curlCommand(
      origin,
      request({ method: 'POST', headers: [{ name: 'Content-Type', value: 'application/json' }], body }),
      held,
    );
    expect(command).toMatch(/^printf '.*' \| curl .* --data-binary @-$/);
    expect((await sentBy(command)).body).toEqual(body);
  });

  it('send header values with Latin-1 bytes, HEAD, and bodies without a content type', async () => {
    const header = await sentBy(curlCommand(origin, request({ headers: [{ name: 'X-Key', value: 'a\xffb' }] }), held));
    expect(`${header.head}\r\n`).toContain('\r\nX-Key: a\xffb\r\n');
    expect((await sentBy(curlCommand(origin, request({ method: 'HEAD' }), held))).head).toMatch(/^HEAD \/v1\/pets /);
    const bare = await sentBy(curlCommand(origin, request({ method: 'PUT', body: Buffer.from('x'.repeat(2000)) }), held));
    expect(bare.head).not.toMatch(/content-type|expect:/i);
    expect(bare.body.toString()).toBe('x'.repeat(2000));
  });

  it('quote for the shell', () => {
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
    expect(shellQuote('a\xffb\\')).toBe("$'a\\xffb\\\\'");
  });
});
