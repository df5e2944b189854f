import { describe, expect, it } from 'vitest';
import { openPostgres, sqlClient } from '../../support/postgres-storage.js';

describe('the pets store on PostgreSQL', () => {
  it('never reuses an id, even after the newest row is gone', async () => {
    const { storage, url } = await openPostgres();
    await storage.createPet({ name: 'a', categoryId: 1 });
    await storage.createPet({ name: 'b', categoryId: 1 });
    await (await sqlClient(url)).query('DELETE FROM pets WHERE id = 2');
    expect((await storage.createPet({ name: 'c', categoryId: 1 })).id).toBe(3);
  });

  it('reads pets back as they were created, a page at a time and by status', async () => {
    const { storage } = await openPostgres();
    const rex = await storage.createPet({ name: 'Rex', categoryId: 3, status: 'sold' });
    const tom = await storage.createPet({ name: 'Tom', categoryId: 4 });
    expect(rex).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'sold' });
    expect(tom).toEqual({ id: 2, name: 'Tom', categoryId: 4 });
    expect(await storage.getPet(2)).toEqual({ pet: tom, version: 1 });
    expect(await storage.getPet(3)).toBeUndefined();
    expect(await storage.listPets({ limit: 10 })).toEqual([rex, tom]);
    expect(await storage.listPets({ limit: 10, afterId: 1 })).toEqual([tom]);
    expect(await storage.listPets({ limit: 10, status: 'sold' })).toEqual([rex]);
  });
});
