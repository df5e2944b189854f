import { describe, expect, it } from 'vitest';
import { openPostgres } from '../../support/postgres-storage.js';

describe('PostgreSQL pet creates, group-committed', () => {
  it('inserts the creates that arrive together as one batch, each pet answered with its own id', async () => {
    const batches: number[] = [];
    const { storage } = await openPostgres({ metrics: { observeCommit: (writes) => batches.push(writes), observePool: () => {} } });
    const pets = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        storage.createPet({ name: `pet-${i}`, categoryId: i + 1, ...(i % 2 ? { status: 'sold' } : {}) }),
      ),
    );
    expect(pets.map((pet) => pet.name)).toEqual(Array.from({ length: 40 }, (_, i) => `pet-${i}`));
    expect(pets.map((pet) => pet.categoryId)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(pets.map((pet) => pet.status)).toEqual(Array.from({ length: 40 }, (_, i) => (i % 2 ? 'sold' : undefined)));
    expect(new Set(pets.map((pet) => pet.id)).size).toBe(40);
    expect(batches.reduce((sum, writes) => sum + writes, 0)).toBe(40);
    expect(Math.max(...batches)).toBeGreaterThan(1);
    for (const pet of pets) expect((await storage.getPet(pet.id))?.pet).toEqual(pet);
  });

  it('fails only the pet whose row fails, inserting the rest of its batch', async () => {
    const { storage } = await openPostgres();
    const first = storage.createPet({ name: 'first', categoryId: 1 });
    // bigint holds no 1e19: that row fails, and only that one.
    const outcomes = await Promise.allSettled([
      storage.createPet({ name: 'a', categoryId: 2 }),
      storage.createPet({ name: 'b', categoryId: 1e19 }),
      storage.createPet({ name: 'c', categoryId: 3 }),
    ]);
    await first;
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await storage.listPets({ limit: 10 })).map((pet) => pet.name).sort()).toEqual(['a', 'c', 'first']);
  });
});
