import { describe, expect, it } from 'vitest';
import { openStorage, storageKindOf } from '../../src/storage/open-storage.js';
import { allBackends } from '../support/backends.js';

describe('openStorage', () => {
  it.each([
    ['file:data/petstore.db', 'sqlite'],
    ['file::memory:', 'sqlite'],
    ['postgres://u:p@db:5432/pets', 'postgres'],
    ['postgresql://u:p@db/pets', 'postgres'],
  ])('serves %s with the %s backend', (url, kind) => {
    expect(storageKindOf(url)).toBe(kind);
  });

  it.each(['mysql://user:hunter2@db/pets', 'data/petstore.db', ''])('refuses %j, echoing only the scheme', (url) => {
    expect(() => storageKindOf(url)).toThrow(/^DATABASE_URL scheme ".*" is not supported/);
    expect(() => storageKindOf(url)).not.toThrow(/hunter2/);
  });

  it.each(allBackends)('opens a migrated, working store of $name', async (backend) => {
    const storage = await openStorage(await backend.createDatabaseUrl());
    try {
      expect(storage.kind).toBe(backend.name);
      expect(await storage.listPets({ limit: 1 })).toEqual([]);
    } finally {
      await storage.close();
    }
  });
});
