import { describe, expect, it } from 'vitest';
import { postgresBackend } from '../../support/backends.js';
import { openPostgres, sqlClient } from '../../support/postgres-storage.js';

describe('quotas counted in PostgreSQL', () => {
  it('counts in an unlogged table that every process shares', async () => {
    const url = await postgresBackend.createDatabaseUrl();
    const [{ storage: one }, { storage: two }] = await Promise.all([openPostgres({}, url), openPostgres({}, url)]);
    const policy = { keyPrefix: 'test', points: 3, durationSeconds: 60 };
    const [a, b] = [one.sharedQuotaCounter(policy), two.sharedQuotaCounter(policy)];
    expect((await a.add('7', 1)).counted).toBe(1);
    expect((await b.add('7', 1)).counted).toBe(2);
    expect((await a.add('7', 1)).counted).toBe(3);
    const over = await b.add('7', 1);
    expect(over.counted).toBe(4);
    expect(over.msBeforeReset).toBeGreaterThan(58_000);
    expect((await a.add('8', 1)).counted).toBe(1); // another key
    const client = await sqlClient(url);
    const { rows } = await client.query<{ key: string; points: number }>('SELECT key, points FROM rate_limits ORDER BY key');
    expect(rows).toEqual([
      { key: 'test:7', points: 4 },
      { key: 'test:8', points: 1 },
    ]);
    const { rows: kind } = await client.query<{ relpersistence: string }>(
      "SELECT relpersistence FROM pg_class WHERE relname = 'rate_limits'",
    );
    expect(kind).toEqual([{ relpersistence: 'u' }]);
  });

  it('counts in memory while the rate limit table cannot be used', async () => {
    const { storage, url } = await openPostgres();
    await (await sqlClient(url)).query('DROP TABLE rate_limits');
    const counter = storage.sharedQuotaCounter({ keyPrefix: 'test', points: 1, durationSeconds: 60 });
    expect((await counter.add('1', 1)).counted).toBe(1);
    expect((await counter.add('1', 1)).counted).toBe(2);
  });
});
