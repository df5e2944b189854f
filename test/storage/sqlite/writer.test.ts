import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SqliteStorage } from '../../../src/storage/sqlite/sqlite-storage.js';
import type { RecordedResponse } from '../../../src/storage/storage.js';
import { StorageUnavailableError } from '../../../src/storage/storage.js';

function tempUrl(): string {
  return `file:${join(mkdtempSync(join(tmpdir(), 'petstore-writer-')), 'store.db')}`;
}

const respond = (pet: { id: number }): RecordedResponse => ({
  status: 201,
  headers: { Location: `/v1/pets/${pet.id}` },
  body: Buffer.from(JSON.stringify(pet)),
});
const idempotency = (key: string, fingerprint = 'f') => ({
  accountId: 1,
  key,
  fingerprint,
  now: new Date('2026-11-23T00:00:00Z'),
  expiresAt: new Date('2026-11-24T00:00:00Z'),
});

describe.each([
  ['a file (writer thread)', tempUrl],
  ['memory (inline)', () => 'file::memory:'],
])('the SQLite writer on %s', (_label, url) => {
  it('commits writes that arrive together in batches, each answered after its own commit', async () => {
    const batches: number[] = [];
    const storage = await SqliteStorage.open(url(), {
      metrics: { observeCommit: (writes) => batches.push(writes), observePool: () => expect.unreachable('SQLite has no pool') },
    });
    try {
      const pets = await Promise.all(Array.from({ length: 50 }, (_, i) => storage.createPet({ name: `pet-${i}`, categoryId: 1 })));
      expect(new Set(pets.map((pet) => pet.id)).size).toBe(50);
      expect(batches.reduce((sum, writes) => sum + writes, 0)).toBe(50);
      // The first goes alone, at once; the rest, sent while it committed, together.
      expect(batches.length).toBeLessThan(50);
      expect(Math.max(...batches)).toBeGreaterThan(1);
      expect(storage.listPets({ limit: 100 })).toEqual(pets.sort((a, b) => a.id - b.id));
    } finally {
      await storage.close();
    }
  });

  it('fails only the write that failed, not the rest of its batch', async () => {
    const storage = await SqliteStorage.open(url());
    try {
      const outcomes = await Promise.allSettled([
        storage.createPet({ name: 'a', categoryId: 1 }),
        storage.createApiKey({ accountId: 999, hash: 'h', displayPrefix: 'psk_' }), // no such account
        storage.createPet({ name: 'b', categoryId: 1 }),
      ]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ code: 'SQLITE_CONSTRAINT_FOREIGNKEY' });
      expect((await storage.listPets({ limit: 10 })).map((pet) => pet.name)).toEqual(['a', 'b']);
    } finally {
      await storage.close();
    }
  });

  it('records a keyed create with its pet in the batch, and tells a second request with the key in the same batch it is in progress', async () => {
    const storage = await SqliteStorage.open(url());
    try {
      const account = await storage.ensureAccount('alice');
      expect(account.id).toBe(1);
      // The first write goes alone; the three sent while it commits share the next batch.
      const [, first, second, other] = await Promise.all([
        storage.createPet({ name: 'before', categoryId: 1 }),
        storage.createPetIdempotently({ name: 'a', categoryId: 1 }, idempotency('k1'), respond),
        storage.createPetIdempotently({ name: 'a', categoryId: 1 }, idempotency('k1'), respond),
        storage.createPetIdempotently({ name: 'b', categoryId: 1 }, idempotency('k2'), respond),
      ]);
      expect(first.kind).toBe('created');
      expect(second).toEqual({ kind: 'in_progress' });
      expect(other.kind).toBe('created');
      const replay = await storage.createPetIdempotently({ name: 'a', categoryId: 1 }, idempotency('k1'), respond);
      expect(replay).toEqual({ kind: 'replayed', response: (first as { response: RecordedResponse }).response });
      expect(storage.listPets({ limit: 10 })).toHaveLength(3);
    } finally {
      await storage.close();
    }
  });

  it('rolls a keyed create back, pet and all, when its response cannot be rendered', async () => {
    const storage = await SqliteStorage.open(url());
    try {
      await storage.ensureAccount('alice');
      const failing = storage.createPetIdempotently({ name: 'a', categoryId: 1 }, idempotency('k1'), () => {
        throw new Error('render failed');
      });
      await expect(failing).rejects.toThrow('render failed');
      expect(storage.listPets({ limit: 10 })).toEqual([]);
    } finally {
      await storage.close();
    }
  });

  it('finishes what was submitted before it closes, and refuses writes after', async () => {
    const storage = await SqliteStorage.open(url());
    const pending = Array.from({ length: 10 }, (_, i) => storage.createPet({ name: `pet-${i}`, categoryId: 1 }));
    await storage.close();
    expect(await Promise.all(pending)).toHaveLength(10);
    await expect(storage.createPet({ name: 'late', categoryId: 1 })).rejects.toBeInstanceOf(StorageUnavailableError);
  });
});
