import { describe, expect, it } from 'vitest';
import { openPostgres } from '../../support/postgres-storage.js';

describe('PostgreSQL updates and deletes of pets', () => {
  it('let exactly one of many updates that expect the same version through, over two pools on one database', async () => {
    const { storage, url } = await openPostgres();
    const { storage: other } = await openPostgres({}, url);
    const { id } = await storage.createPet({ name: 'Rex', categoryId: 3 });
    for (let version = 1; version <= 3; version += 1) {
      const outcomes = await Promise.all(
        Array.from({ length: 8 }, (_, i) => (i % 2 ? other : storage).updatePet(id, { name: `n${version}-${i}` }, [version])),
      );
      expect(outcomes.filter(({ kind }) => kind === 'updated')).toHaveLength(1);
      expect(outcomes.filter(({ kind }) => kind === 'version_mismatch')).toHaveLength(7);
    }
    const deletions = await Promise.all([storage.deletePet(id, [4]), other.deletePet(id, [4])]);
    expect(deletions.sort()).toEqual(['deleted', 'not_found']);
    expect(await other.deletePet(id, [3])).toBe('not_found');
  });

  it('tell a pet that is gone from one whose version moved on', async () => {
    const { storage } = await openPostgres();
    const { id } = await storage.createPet({ name: 'Rex', categoryId: 3 });
    expect(await storage.updatePet(id, { status: 'sold' }, [2])).toEqual({ kind: 'version_mismatch' });
    expect(await storage.deletePet(id, [])).toBe('version_mismatch');
    expect(await storage.updatePet(id + 1, { status: 'sold' })).toEqual({ kind: 'not_found' });
    expect(await storage.deletePet(id, [1])).toBe('deleted');
    expect(await storage.updatePet(id, { status: 'sold' }, [1])).toEqual({ kind: 'not_found' });
    expect(await storage.deletePet(id)).toBe('not_found');
  });
});
