import { describe, expect, it } from 'vitest';
import { backends } from '../support/backends.js';
import { contractFetch, runKeys, startServer } from '../support/processes.js';

describe.each(backends)('the built server as a process [$name]', (backend) => {
  it('serves all three operations over HTTP with a key made by the keys CLI', async () => {
    const env = { DATABASE_URL: await backend.createDatabaseUrl() };
    const key = runKeys(['create', '--account', 'e2e'], env).stdout.trim().split('\n').at(-1)!;
    const server = await startServer(env);
    try {
      expect(server.output.join('\n')).not.toContain('psk_'); // a key exists, so no bootstrap key
      const auth = { Authorization: `Bearer ${key}` };
      const created = await contractFetch(`${server.baseUrl}/pets`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 3, status: 'available' }),
      });
      expect(created.status).toBe(201);
      expect(created.headers.get('location')).toBe('/v1/pets/1');
      await contractFetch(`${server.baseUrl}/pets`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Tom', categoryId: 4 }),
      });

      const page = await contractFetch(`${server.baseUrl}/pets?limit=1`, { headers: auth });
      expect(page.body).toEqual([{ id: 1, name: 'Rex', categoryId: 3, status: 'available' }]);
      const next = /<([^>]+)>; rel="next"/.exec(page.headers.get('link') ?? '')?.[1];
      const rest = await contractFetch(new URL(next!, server.baseUrl).href, { headers: auth });
      expect(rest.body).toEqual([{ id: 2, name: 'Tom', categoryId: 4 }]);
      expect(rest.headers.get('link')).toBeNull();

      const one = await contractFetch(`${server.baseUrl}/pets/1`, { headers: auth });
      expect(one.body).toEqual(created.body);
      expect(one.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');

      expect((await contractFetch(`${server.baseUrl}/pets`)).status).toBe(401);
    } finally {
      expect(await server.stop()).toBe(0);
    }
    // A request is logged once its response has gone, so the log is complete only after the stop.
    const requestLines = server.output.filter((line) => line.includes('"msg":"request completed"'));
    expect(requestLines).toHaveLength(6);
    expect(server.output.join('\n')).not.toContain(key.slice(4));
  });

  it('on a new store, creates account admin and prints its key once', async () => {
    const env = { DATABASE_URL: await backend.createDatabaseUrl() };
    const first = await startServer(env);
    await first.stop();
    const printed = first.output.join('\n');
    const key = /^\s+(psk_[A-Za-z0-9_-]{43})$/m.exec(printed)?.[1];
    expect(key).toBeDefined();
    expect(printed).toContain('account "admin"');
    expect(printed).toContain('npm run --silent keys -- create --account NAME');

    const second = await startServer(env);
    try {
      expect(second.output.join('\n')).not.toContain('psk_');
      const res = await contractFetch(`${second.baseUrl}/pets`, { headers: { Authorization: `Bearer ${key}` } });
      expect(res.status).toBe(200);
    } finally {
      await second.stop();
    }
  });

  it('never logs a key, even one sent in the query string', async () => {
    const env = { DATABASE_URL: await backend.createDatabaseUrl() };
    const key = runKeys(['create', '--account', 'e2e'], env).stdout.trim();
    const server = await startServer(env);
    try {
      await contractFetch(`${server.baseUrl}/pets?access_token=${key}`);
      await contractFetch(`${server.baseUrl}/pets`, { headers: { Authorization: `Bearer ${key}` } });
      await contractFetch(`${server.baseUrl}/pets`, { headers: { Authorization: `Bearer ${key}x` } });
    } finally {
      await server.stop();
    }
    expect(server.output.join('\n')).not.toContain(key.slice(4, 20));
    expect(server.output.join('\n')).toContain('access_token=[redacted]');
  });
});
