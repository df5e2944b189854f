import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresBackend } from '../support/backends.js';
import { QUOTA_NEVER_REACHED, contractFetch, runKeys, startServer, type RunningServer } from '../support/processes.js';

const CREATES = 1000;

describe('scale-out: two server processes on one PostgreSQL database', () => {
  let env: Record<string, string>;
  let servers: RunningServer[] = [];
  let key: string;

  beforeAll(async () => {
    env = {
      DATABASE_URL: await postgresBackend.createDatabaseUrl(),
      DATABASE_POOL_SIZE: '10',
      DATABASE_CONNECT_TIMEOUT_MS: '60000',
      ...QUOTA_NEVER_REACHED,
    };
    key = runKeys(['create', '--account', 'scale'], env).stdout.trim();
    // Started together: the migration lock makes the second wait for the first's migrations.
    servers = await Promise.all([startServer(env), startServer(env)]);
  });

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.stop()));
  });

  it(`gives ${CREATES} concurrent creates over both processes ${CREATES} distinct ids, and either process lists each exactly once`, async () => {
    const auth = { Authorization: `Bearer ${key}` };
    const responses = await Promise.all(
      Array.from({ length: CREATES }, (_, i) =>
        contractFetch(`${servers[i % 2]!.baseUrl}/pets`, {
          method: 'POST',
          headers: { ...auth, 'Content-Type': 'application/json' },
          body: JSON.stringify({ name: `pet-${i}`, categoryId: (i % 7) + 1, ...(i % 3 === 0 ? { status: 'sold' } : {}) }),
        }),
      ),
    );
    expect(responses.map((res) => res.status)).toEqual(Array(CREATES).fill(201));
    const createdIds = responses.map((res) => (res.body as { id: number }).id);
    expect(new Set(createdIds).size).toBe(CREATES);

    for (const server of servers) {
      const listed: number[] = [];
      for (let url: string | undefined = `${server.baseUrl}/pets?limit=100`; url;) {
        const page = await contractFetch(url, { headers: auth });
        listed.push(...(page.body as Array<{ id: number }>).map((pet) => pet.id));
        const next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
        url = next ? new URL(next, server.baseUrl).href : undefined;
      }
      expect(listed).toEqual([...createdIds].sort((a, b) => a - b));
    }
  });

  it('of two patches sent at once with the same If-Match, one to each process, applies exactly one; the other gets 412', async () => {
    const auth = { Authorization: `Bearer ${key}` };
    const created = await contractFetch(`${servers[0]!.baseUrl}/pets`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Contested', categoryId: 1, status: 'available' }),
    });
    const { id } = created.body as { id: number };
    let etag = created.headers.get('etag')!;
    for (let round = 0; round < 10; round += 1) {
      const answers = await Promise.all(
        servers.map((server, i) =>
          contractFetch(`${server.baseUrl}/pets/${id}`, {
            method: 'PATCH',
            headers: { ...auth, 'Content-Type': 'application/merge-patch+json', 'If-Match': etag },
            body: JSON.stringify({ name: `round-${round}-process-${i}` }),
          }),
        ),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([200, 412]);
      const winner = answers.find((res) => res.status === 200)!;
      etag = winner.headers.get('etag')!;
      // Either process now reads the winner's pet and ETag.
      for (const server of servers) {
        const read = await contractFetch(`${server.baseUrl}/pets/${id}`, { headers: auth });
        expect([read.body, read.headers.get('etag')]).toEqual([winner.body, etag]);
      }
    }
    const removals = await Promise.all(
      servers.map((server) => contractFetch(`${server.baseUrl}/pets/${id}`, { method: 'DELETE', headers: { ...auth, 'If-Match': etag } })),
    );
    // The second finds the pet gone: 404 comes before the precondition.
    expect(removals.map((res) => res.status).sort()).toEqual([204, 404]);
  });

  it('refuses a key revoked through the CLI on both processes at their next request', async () => {
    const other = runKeys(['create', '--account', 'doomed'], env).stdout.trim();
    const listed = JSON.parse(runKeys(['list', '--json'], env).stdout) as Array<{ id: number; accountName: string }>;
    const doomedId = listed.find((k) => k.accountName === 'doomed')!.id;
    for (const server of servers) {
      expect((await contractFetch(`${server.baseUrl}/pets?limit=1`, { headers: { Authorization: `Bearer ${other}` } })).status).toBe(200);
    }
    expect(runKeys(['revoke', String(doomedId)], env).status).toBe(0);
    for (const server of servers) {
      const res = await contractFetch(`${server.baseUrl}/pets?limit=1`, { headers: { Authorization: `Bearer ${other}` } });
      expect(res.status).toBe(401);
      expect((res.body as { code: string }).code).toBe('invalid_api_key');
    }
  });
});
