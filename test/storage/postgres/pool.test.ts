import { describe, expect, it } from 'vitest';
import { parseInt8 } from '../../../src/storage/postgres/pool.js';
import { openPostgres, sqlClient } from '../../support/postgres-storage.js';

describe('the PostgreSQL pool', () => {
  it('maps int8 to exact numbers up to 2^53 - 1', async () => {
    const { storage } = await openPostgres();
    const pet = await storage.createPet({ name: 'Big', categoryId: Number.MAX_SAFE_INTEGER });
    expect(pet).toEqual({ id: 1, name: 'Big', categoryId: Number.MAX_SAFE_INTEGER });
    expect(typeof pet.id).toBe('number');
    expect((await storage.getPet(1))?.pet).toEqual(pet);
  });

  it('refuses to round an int8 beyond 2^53 - 1 that reached the table', async () => {
    const { storage, url } = await openPostgres();
    await (await sqlClient(url)).query("INSERT INTO pets (name, category_id) VALUES ('x', 9007199254740993)");
    await expect(storage.getPet(1)).rejects.toThrow('int8 value 9007199254740993 is outside the safe integer range');
    expect(() => parseInt8('-9007199254740992')).toThrow(RangeError);
    expect(parseInt8('-9007199254740991')).toBe(-Number.MAX_SAFE_INTEGER);
  });

  it('shows its pool to the metrics, read whenever they are', async () => {
    let read: (() => { total: number; idle: number; waiting: number; max: number }) | undefined;
    const { storage } = await openPostgres({
      poolSize: 3,
      metrics: { observeCommit: () => {}, observePool: (reader) => (read = reader) },
    });
    expect(read!()).toEqual({ total: 1, idle: 1, waiting: 0, max: 3 });
    const busy = Array.from({ length: 5 }, () => storage.ping());
    // Five queries at once: all waiting for a connection of the pool, or using one.
    const during = read!();
    expect(during.waiting + (during.total - during.idle)).toBe(5);
    await Promise.all(busy);
    // The pool opened as many connections as it may, and they are idle again.
    expect(read!()).toEqual({ total: 3, idle: 3, waiting: 0, max: 3 });
  });
});
