import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contractFetch, runKeys, startServer, type RunningServer } from '../support/processes.js';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../support/postgres-server.js';

/** This test stops and restarts its database, so it has a PostgreSQL server of its own. */
describe('database outage under a running server', () => {
  let database: ThrowawayPostgres;
  let server: RunningServer;
  let env: Record<string, string>;
  let auth: { Authorization: string };

  beforeAll(async () => {
    database = await startThrowawayPostgres();
    env = { DATABASE_URL: database.adminUrl, DATABASE_CONNECT_TIMEOUT_MS: '1000' };
    auth = { Authorization: `Bearer ${runKeys(['create', '--account', 'ops'], env).stdout.trim()}` };
    server = await startServer(env);
  });

  afterAll(async () => {
    await server?.stop();
    await database?.destroy();
  });

  const create = (name: string) =>
    contractFetch(`${server.baseUrl}/pets`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1 }),
    });
  const origin = () => new URL(server.baseUrl).origin;

  it('answers 503 while the database is down, stays up, recovers by itself, and never sends 201 for an uncommitted pet', async () => {
    expect((await create('before')).status).toBe(201);

    // Writes in flight while the database goes down: each must end in 201 (committed) or 503.
    const inFlight = Array.from({ length: 40 }, (_, i) => create(`during-${i}`));
    await database.stop();
    const during = await Promise.all(inFlight);
    expect(during.every((res) => res.status === 201 || res.status === 503)).toBe(true);

    for (const send of [
      () => create('down'),
      () => contractFetch(`${server.baseUrl}/pets`, { headers: auth }),
      () => contractFetch(`${server.baseUrl}/pets/1`, { headers: auth }),
    ]) {
      const res = await send();
      expect(res.status).toBe(503);
      expect(res.body).toEqual({
        code: 'service_unavailable',
        status: 503,
        message: 'The service is temporarily unavailable. Try again later.',
      });
      expect(res.headers.get('retry-after')).toBe('5');
    }
    expect((await contractFetch(`${origin()}/readyz`)).status).toBe(503);
    expect((await contractFetch(`${origin()}/healthz`)).status).toBe(200);
    // Requests without a key need no database: still 401.
    expect((await contractFetch(`${server.baseUrl}/pets`)).status).toBe(401);

    await database.start();
    await vi.waitFor(async () => expect((await contractFetch(`${origin()}/readyz`)).status).toBe(200), { timeout: 15_000, interval: 100 });
    expect((await create('after')).status).toBe(201);

    const client = new pg.Client(database.adminUrl);
    await client.connect();
    const { rows } = await client.query<{ id: string; name: string }>('SELECT id, name FROM pets');
    await client.end();
    const stored = new Set(rows.map((row) => row.name));
    for (const [i, res] of during.entries()) {
      if (res.status === 201) expect(stored.has(`during-${i}`), `201 for during-${i}, but it is not in the table`).toBe(true);
    }
    expect(stored.has('before') && stored.has('after')).toBe(true);
    expect(stored.has('down')).toBe(false);
  });
});
