import { beforeEach, describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/contract.js';
import { backends } from '../../support/backends.js';
import { rawRequest } from '../../support/raw-http.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

function request(
  t: TestApi,
  {
    line,
    host = 'Host: 127.0.0.1',
    extra = [] as string[],
    auth = true,
  }: { line: string; host?: string | null; extra?: string[]; auth?: boolean },
): string {
  const lines = [line, ...(host === null ? [] : [host]), ...(auth ? [`Authorization: ${t.auth.Authorization}`] : []), ...extra];
  return `${lines.join('\r\n')}\r\n\r\n`;
}

describe.each(backends)('request targets, Host and HTTP versions [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend });
    await t.storage.createPet({ name: 'Rex', categoryId: 3 });
  });

  it.each([
    'http://127.0.0.1/v1/pets?limit=1',
    'HTTP://api.petstore.example:8443/v1/pets?limit=1',
    'https://elsewhere.example/v1/pets?limit=1',
  ])('serves an absolute-form target (%s) as its path', async (target) => {
    const res = await rawRequest(t.origin, request(t, { line: `GET ${target} HTTP/1.1` }), { url: '/v1/pets?limit=1' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: 1, name: 'Rex', categoryId: 3 }]);
  });

  it.each([
    ['no Host on HTTP/1.1', { line: 'GET /v1/pets HTTP/1.1', host: null }, 'it has no Host header'],
    ['two Host headers', { line: 'GET /v1/pets HTTP/1.1', extra: ['Host: other.example'] }, 'it has more than one Host header'],
    [
      'a Host with a space',
      { line: 'GET /v1/pets HTTP/1.1', host: 'Host: a b' },
      'its Host header is not a host name with an optional port',
    ],
    [
      'a Host with a path',
      { line: 'GET /v1/pets HTTP/1.1', host: 'Host: example.com/x' },
      'its Host header is not a host name with an optional port',
    ],
    [
      'a Host with user info',
      { line: 'GET /v1/pets HTTP/1.1', host: 'Host: user@example.com' },
      'its Host header is not a host name with an optional port',
    ],
    [
      'a Host with a bad port',
      { line: 'GET /v1/pets HTTP/1.1', host: 'Host: example.com:80a' },
      'its Host header is not a host name with an optional port',
    ],
    [
      'an unbracketed IPv6 Host',
      { line: 'GET /v1/pets HTTP/1.1', host: 'Host: ::1' },
      'its Host header is not a host name with an optional port',
    ],
    [
      'a target of another scheme',
      { line: 'GET ftp://example.com/v1/pets HTTP/1.1' },
      'the request target is neither a path nor an absolute http(s) URL',
    ],
    ['* with GET', { line: 'GET * HTTP/1.1' }, 'only OPTIONS takes the target *'],
    // This server is no proxy: a host and port is no target it has.
    [
      'CONNECT to a host and port',
      { line: 'CONNECT example.com:443 HTTP/1.1' },
      'the request target is neither a path nor an absolute http(s) URL',
    ],
    [
      // Node keeps 2,000 header lines by default and drops the rest unseen.
      'a second Host after 2,000 header lines',
      { line: 'GET /v1/pets HTTP/1.1', extra: [...Array.from({ length: 2000 }, () => 'X: a'), 'Host: other.example'] },
      'it has more than one Host header',
    ],
  ])('answers %s with 400 bad_request', async (_label, parts, problem) => {
    const res = await rawRequest(t.origin, request(t, parts));
    expect(res.body).toEqual({ code: 'bad_request', status: 400, message: `The request is not valid HTTP/1.1: ${problem}.` });
  });

  it.each(['Host: [::1]:8080', 'Host: 127.0.0.1', 'Host: api.petstore.example', 'Host: ', 'Host: xn--bcher-kva.example:443'])(
    'accepts %s',
    async (host) => {
      expect((await rawRequest(t.origin, request(t, { line: 'GET /v1/pets HTTP/1.1', host }), { url: '/v1/pets' })).status).toBe(200);
    },
  );

  it('refuses a Transfer-Encoding on HTTP/1.0, serves nothing of it, and closes (RFC 9112 §6.1)', async () => {
    const body = JSON.stringify({ name: 'Tom', categoryId: 4 });
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`;
    for (const keepAlive of [[], ['Connection: keep-alive']]) {
      const head = request(t, {
        line: 'POST /v1/pets HTTP/1.0',
        extra: ['Content-Type: application/json', 'Transfer-Encoding: chunked', ...keepAlive],
      });
      const res = await rawRequest(t.origin, head + chunked, { method: 'POST', url: '/v1/pets', closes: true });
      expect(res.body).toEqual({
        code: 'bad_request',
        status: 400,
        message: 'The request is not valid HTTP/1.1: it is HTTP/1.0, which has no Transfer-Encoding.',
      });
    }
    expect(await t.storage.listPets({ limit: 10 })).toEqual([{ id: 1, name: 'Rex', categoryId: 3 }]);
  });

  it('serves HTTP/1.0 without a Host', async () => {
    expect((await rawRequest(t.origin, request(t, { line: 'GET /v1/pets HTTP/1.0', host: null }), { url: '/v1/pets' })).status).toBe(200);
  });

  it.each(['GET /v1/pets HTTP/2.0', 'GET /v1/pets HTTP/1.2', 'GET /v1/pets HTTP/3.0'])('answers %s with 505', async (line) => {
    const res = await rawRequest(t.origin, request(t, { line }));
    expect(res.body).toEqual({ code: 'http_version_not_supported', status: 505, message: 'Send HTTP/1.1 (or HTTP/1.0).' });
  });

  it('answers a target over 8 KiB with 414', async () => {
    const res = await rawRequest(t.origin, request(t, { line: `GET /v1/pets/${'1'.repeat(10_000)} HTTP/1.1` }));
    expect(res.body).toEqual({ code: 'uri_too_long', status: 414, message: 'The request target is longer than 8192 bytes.' });
  });

  describe('HEAD', () => {
    it.each([
      ['/v1/pets?limit=1', 200],
      ['/v1/pets/1', 200],
      ['/v1/pets/2', 404],
      ['/v1/pets/abc', 400],
      ['/v1/store/orders', 200],
    ])('answers HEAD %s with the status and headers of GET, and no body', async (path, status) => {
      const get = await t.api.get(path).set(t.auth).expect(status);
      const head = await rawRequest(t.origin, request(t, { line: `HEAD ${path} HTTP/1.1` }), { method: 'HEAD', url: path });
      expect(head.status).toBe(status);
      expect(head.text).toBe('');
      for (const name of ['content-type', 'content-length', 'link', 'deprecation', 'sunset', 'cache-control']) {
        expect(head.headers[name], name).toBe(get.headers[name]);
      }
    });

    it('authenticates HEAD first', async () => {
      const res = await rawRequest(t.origin, request(t, { line: 'HEAD /v1/pets HTTP/1.1', auth: false }), {
        method: 'HEAD',
        url: '/v1/pets',
      });
      expect(res.status).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="pet-store"');
    });

    it('is listed in Allow wherever GET is', async () => {
      const { document, basePath } = loadContract();
      for (const [template, item] of Object.entries(document.paths).filter(([, item]) => 'get' in item)) {
        const missing = (['delete', 'put', 'patch', 'post'] as const).find((method) => !(method in item))!;
        const res = await t.api[missing](`${basePath}${template.replace(/\{[^}]+\}/g, '1')}`)
          .set(t.auth)
          .expect(405);
        expect((res.headers['allow'] as string).split(', '), template).toContain('HEAD');
      }
    });

    it('answers HEAD on the published spec as its GET', async () => {
      const res = await t.api.get('/openapi.json').expect(200);
      const head = await rawRequest(t.origin, request(t, { line: 'HEAD /openapi.json HTTP/1.1' }), {
        method: 'HEAD',
        url: '/openapi.json',
      });
      expect(head.status).toBe(200);
      expect(head.headers['content-length']).toBe(res.headers['content-length']);
    });
  });
});
