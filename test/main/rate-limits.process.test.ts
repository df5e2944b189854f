import { afterEach, describe, expect, it } from 'vitest';
import { postgresBackend, sqliteBackend } from '../support/backends.js';
import { contractFetch, runKeys, startServer, type RunningServer } from '../support/processes.js';

let servers: RunningServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  servers = [];
});

async function statusCounts(requests: Array<Promise<{ status: number }>>): Promise<Record<number, number>> {
  const counts: Record<number, number> = {};
  for (const { status } of await Promise.all(requests)) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('rate limits of the built server', () => {
  it('hold across two server processes on one PostgreSQL database: N requests per key in all', async () => {
    const env = { DATABASE_URL: await postgresBackend.createDatabaseUrl(), RATE_LIMIT_PER_MINUTE: '10' };
    const key = runKeys(['create', '--account', 'busy'], env).stdout.trim().split('\n').at(-1)!;
    servers = await Promise.all([startServer(env), startServer(env)]);
    const headers = { Authorization: `Bearer ${key}` };
    // 30 requests, at once, spread over both processes.
    const counts = await statusCounts(Array.from({ length: 30 }, (_, n) => contractFetch(`${servers[n % 2]!.baseUrl}/pets`, { headers })));
    expect(counts).toEqual({ 200: 10, 429: 20 });
    // And it stays used up, in both.
    for (const server of servers) expect((await contractFetch(`${server.baseUrl}/pets`, { headers })).status).toBe(429);
  });

  it('on SQLite, counts in the process: RATE_LIMIT_PER_MINUTE requests, then 429', async () => {
    const env = { DATABASE_URL: await sqliteBackend.createDatabaseUrl(), RATE_LIMIT_PER_MINUTE: '4' };
    const key = runKeys(['create', '--account', 'busy'], env).stdout.trim().split('\n').at(-1)!;
    servers = [await startServer(env)];
    const headers = { Authorization: `Bearer ${key}` };
    const counts = await statusCounts(Array.from({ length: 9 }, () => contractFetch(`${servers[0]!.baseUrl}/pets`, { headers })));
    expect(counts).toEqual({ 200: 4, 429: 5 });
  });

  it('by default: 600 requests per key, 30 failed authentications per address, a minute', async () => {
    const env = { DATABASE_URL: await sqliteBackend.createDatabaseUrl() };
    const key = runKeys(['create', '--account', 'busy'], env).stdout.trim().split('\n').at(-1)!;
    servers = [await startServer(env)];
    const ok = await contractFetch(`${servers[0]!.baseUrl}/pets`, { headers: { Authorization: `Bearer ${key}` } });
    expect(ok.headers.get('ratelimit-policy')).toBe('"api-key";q=600;w=60');
    const counts = await statusCounts(Array.from({ length: 35 }, () => contractFetch(`${servers[0]!.baseUrl}/pets`)));
    expect(counts).toEqual({ 401: 30, 429: 5 });
    // The key authenticated here before the flood: still served.
    expect((await contractFetch(`${servers[0]!.baseUrl}/pets`, { headers: { Authorization: `Bearer ${key}` } })).status).toBe(200);
  });
});
