import { describe, expect, it } from 'vitest';
import { openStorage } from '../../../src/storage/open-storage.js';
import { postgresBackend, sqliteBackend, type Backend } from '../../support/backends.js';
import { createTestApi, openTestStorage, type TestApi } from '../../support/test-app.js';

const limits = { requestsPerKeyPerMinute: 3, failedAuthPerAddressPerMinute: 0 };

/** Two servers, each with its own storage, on one database; the statuses of the first's key sent to them in this order. */
async function alternate(backend: Backend, order: Array<0 | 1>): Promise<number[]> {
  const url = await backend.createDatabaseUrl();
  const servers: TestApi[] = [];
  for (let n = 0; n < 2; n += 1) servers.push(await createTestApi({ storage: await openStorage(url), rateLimits: limits }));
  const statuses: number[] = [];
  try {
    for (const index of order) statuses.push((await servers[index]!.api.get('/v1/pets').set(servers[0]!.auth)).status);
  } finally {
    for (const { storage } of servers) await storage.close();
  }
  return statuses;
}

describe('where requests per key are counted', () => {
  it('on PostgreSQL, in the database: two servers on one database share each key’s quota', async () => {
    expect(await alternate(postgresBackend, [0, 1, 0, 1, 0, 1])).toEqual([200, 200, 200, 429, 429, 429]);
  });

  it('on SQLite, in each process: two servers on one file count apart', async () => {
    expect(await alternate(sqliteBackend, [0, 0, 0, 1, 1, 1])).toEqual([200, 200, 200, 200, 200, 200]);
  });

  it('by a shared counter only where the store offers one', async () => {
    const policy = { keyPrefix: 'api-key', points: 3, durationSeconds: 60 };
    expect((await openTestStorage(sqliteBackend)).sharedQuotaCounter(policy)).toBeUndefined();
    expect((await openTestStorage(postgresBackend)).sharedQuotaCounter(policy)).toBeDefined();
  });
});
