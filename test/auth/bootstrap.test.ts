import { describe, expect, it } from 'vitest';
import { ensureBootstrapKey } from '../../src/auth/bootstrap.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';

describe('the first key (bootstrap)', () => {
  it('is made for "admin" only while no active key exists', async () => {
    const storage = await SqliteStorage.open('file::memory:');
    const first = await ensureBootstrapKey(storage);
    expect(first).toMatchObject({ accountName: 'admin' });
    expect(await ensureBootstrapKey(storage)).toBeUndefined();
    await storage.revokeApiKey(first!.id);
    expect(await ensureBootstrapKey(storage)).toMatchObject({ accountName: 'admin' });
  });
});
