import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
import { checkContract } from '../support/contract-check.js';
import { startPrism, type RunningPrism } from '../support/prism.js';
import { runKeys, startServer, tempDatabaseUrl, type RunningServer } from '../support/processes.js';

const { basePath } = loadContract();

/**
 * The end-to-end traffic once more, through `prism proxy --errors` in front of the built server: a
 * second, independent reading of openapi.yaml. With --errors Prism answers a response that breaks
 * the spec with its own 500 problem, and reports lesser findings in an sl-violations header and its
 * log; any of these fails the run.
 */
describe('the built server behind prism proxy --errors', () => {
  let server: RunningServer;
  let prism: RunningPrism;
  let auth: { Authorization: string };

  beforeAll(async () => {
    const env = { DATABASE_URL: tempDatabaseUrl() };
    auth = { Authorization: `Bearer ${runKeys(['create', '--account', 'proxy'], env).stdout.trim().split('\n').at(-1)}` };
    server = await startServer(env);
    // Prism matches request paths against the spec's paths, which exclude the base path, and appends
    // them to the upstream URL: so the upstream carries /v1 and clients of the proxy leave it out.
    prism = await startPrism(['proxy', 'openapi.yaml', server.baseUrl, '--errors']);
  });

  afterAll(async () => {
    await prism?.stop();
    await server?.stop();
  });

  /** A request through the proxy; `path` is an API path as the server writes it (/v1/...). */
  async function viaProxy(path: string, init: RequestInit = {}) {
    expect(path.startsWith(`${basePath}/`)).toBe(true);
    const response = await fetch(prism.url + path.slice(basePath.length), init);
    const text = await response.text();
    const headers = Object.fromEntries(response.headers);
    expect(headers['sl-violations'], `${path}: Prism found violations`).toBeUndefined();
    expect(headers['content-type'], `${path}: Prism answered instead of the server: ${text}`).not.toContain('problem+json');
    const body: unknown = text ? JSON.parse(text) : undefined;
    checkContract({ method: init.method ?? 'GET', url: path, status: response.status, headers, body, text });
    return { status: response.status, headers: response.headers, body };
  }

  const post = (body: unknown): RequestInit => ({
    method: 'POST',
    headers: { ...auth, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });

  it('passes every operation, error and page through without a violation', async () => {
    const rex = await viaProxy('/v1/pets', post({ name: 'Rex', categoryId: 3, status: 'available' }));
    expect(rex.status).toBe(201);
    expect(rex.headers.get('location')).toBe('/v1/pets/1');
    expect((await viaProxy('/v1/pets', post({ name: 'Tom', categoryId: 4 }))).status).toBe(201);

    const first = await viaProxy('/v1/pets?limit=1', { headers: auth });
    expect(first.body).toEqual([rex.body]);
    const next = /<([^>]+)>; rel="next"/.exec(first.headers.get('link') ?? '')?.[1];
    const last = await viaProxy(next!, { headers: auth });
    expect(last.body).toEqual([{ id: 2, name: 'Tom', categoryId: 4 }]);
    expect(last.headers.get('link')).toBeNull();
    expect((await viaProxy('/v1/pets?status=available', { headers: auth })).body).toEqual([rex.body]);

    const deprecated = await viaProxy('/v1/pets/1', { headers: auth });
    expect(deprecated.body).toEqual(rex.body);
    expect(deprecated.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');

    expect((await viaProxy('/v1/pets/99', { headers: auth })).body).toMatchObject({ code: 'pet_not_found', status: 404 });
    const unknownKey = { Authorization: `Bearer psk_${'A'.repeat(43)}` };
    expect((await viaProxy('/v1/pets', { headers: unknownKey })).body).toMatchObject({ code: 'invalid_api_key', status: 401 });
    // Well-formed, so Prism passes it on, but not issued by the server.
    expect((await viaProxy('/v1/pets?cursor=bm90LWEtY3Vyc29y', { headers: auth })).body).toMatchObject({
      code: 'invalid_cursor',
      status: 400,
    });

    // Last, a request that breaks the spec: Prism answers it itself (its answer, not the server's, so
    // not checked against openapi.yaml), which shows it validates and marks the end of the log.
    const invalid = await fetch(`${prism.url}/pets?limit=0`, { headers: auth });
    expect(invalid.status).toBe(422);
    expect(await invalid.json()).toMatchObject({ validation: [{ location: ['query', 'limit'], severity: 'Error' }] });
    // Prism logs requests in order: once this one's outcome is logged, so is everything before it.
    const end = await prism.waitForLine(/terminated with error/);
    expect(end).toContain('UNPROCESSABLE_ENTITY');
    expect(prism.output.filter((line) => /Violation|terminated with error/.test(line))).toEqual([end]);
  });
});
