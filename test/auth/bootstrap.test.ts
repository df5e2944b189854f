import { describe, expect, it } from 'vitest';
import { ensureBootstrapKey } from '../../src/auth/bootstrap.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';
import { allBackends } from '../support/backends.js';

describe('the first key (bootstrap)', () => {
  it('is made for "admin" only while no active key exists', async () => {
    const storage = await SqliteStorage.open('file::memory:');
    const first = await ensureBootstrapKey(storage);
    expect(first).toMatchObject({ accountName: 'admin' });
    expect(await ensureBootstrapKey(storage)).toBeUndefined();
    await storage.revokeApiKey(first!.id);
    expect(await ensureBootstrapKey(storage)).toMatchObject({ accountName: 'admin' });
  });

  it.each(allBackends)('is made exactly once when several connections to one $name store try at the same moment', async (backend) => {
    const url = await backend.createDatabaseUrl();
    const storages = await Promise.all(Array.from({ length: 6 }, () => openStorage(url, { poolSize: 2 })));
    try {
      const issued = await Promise.all(storages.map((storage) => ensureBootstrapKey(storage)));
      expect(issued.filter(Boolean)).toHaveLength(1);
      expect(await storages[0]!.listApiKeys()).toHaveLength(1);
    } finally {
      await Promise.all(storages.map((storage) => storage.close()));
    }
  });
});
