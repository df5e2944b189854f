import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { newPetValues, petPatchValues, type PetPatchValues } from '../../../src/storage/pets/pet-table.js';
import type { NewPet } from '../../../src/storage/pets/pets.js';
import { migrateSqlite } from '../../../src/storage/sqlite/migrate.js';
import { configureConnection, prepareWrites } from '../../../src/storage/sqlite/statements.js';
import { executeBatch, type WriteOp } from '../../../src/storage/sqlite/write-batch.js';

/** A key record for alice (account 1), as the writer receives it. */
const idempotency = { accountId: 1, key: 'k', fingerprint: 'f', now: '2026-11-23T00:00:00.000Z', expiresAt: '2026-11-24T00:00:00.000Z' };

/** The pets store's writes as the writer takes them (src/storage/pets/sqlite.ts). */
const createPet = (pet: NewPet): WriteOp => ({ kind: 'store', store: 'pets', write: 'createPet', args: newPetValues(pet) });
const updatePet = (id: number, patch: PetPatchValues, expected: string | null): WriteOp => ({
  kind: 'store',
  store: 'pets',
  write: 'updatePet',
  args: { id, patch, expected },
});
const deletePet = (id: number, expected: string | null): WriteOp => ({
  kind: 'store',
  store: 'pets',
  write: 'deletePet',
  args: { id, expected },
});
/** A keyed create of a pet: the generic keyed insert into its table. */
const createPetIdempotently = (pet: NewPet, keyed: typeof idempotency): WriteOp => ({
  kind: 'insertRowIdempotently',
  table: 'pets',
  values: newPetValues(pet),
  idempotency: keyed,
});

const noRender = () => Promise.reject(new Error('nothing to render'));

describe('executeBatch', () => {
  let db: Database.Database;
  beforeEach(async () => {
    db = new Database(':memory:');
    configureConnection(db);
    await migrateSqlite(db);
  });

  /** The writes' statements, once alice's account (account 1) exists. */
  async function withAlice() {
    const writes = prepareWrites(db);
    await executeBatch(db, writes, [{ kind: 'ensureAccount', name: 'alice' }], noRender);
    return writes;
  }

  it('runs every write in one transaction: one commit for the batch', async () => {
    const ops: WriteOp[] = [
      createPet({ name: 'a', categoryId: 1 }),
      { kind: 'ensureAccount', name: 'alice' },
      createPet({ name: 'b', categoryId: 2, status: 'sold' }),
    ];
    const { results, seconds } = await executeBatch(db, prepareWrites(db), ops, noRender);
    expect(results).toEqual([
      { ok: true, value: { id: 1, name: 'a', categoryId: 1 } },
      { ok: true, value: expect.objectContaining({ id: 1, name: 'alice' }) as unknown },
      { ok: true, value: { id: 2, name: 'b', categoryId: 2, status: 'sold' } },
    ]);
    expect(seconds).toBeGreaterThanOrEqual(0);
    expect(db.inTransaction).toBe(false);
  });

  it('updates and deletes in the same transaction, each checking its version in its own statement', async () => {
    const writes = prepareWrites(db);
    await executeBatch(
      db,
      writes,
      [0, 1, 2].map((i) => createPet({ name: `p${i}`, categoryId: 1 })),
      noRender,
    );
    const sold = petPatchValues({ status: 'sold' });
    const { results } = await executeBatch(
      db,
      writes,
      [
        updatePet(1, sold, '[1]'),
        // The same expected version again: the first update of the batch changed it.
        updatePet(1, petPatchValues({ name: 'late' }), '[1]'),
        updatePet(2, petPatchValues({ name: 'q', status: null }), null),
        updatePet(9, sold, null),
        deletePet(3, '[2]'),
        deletePet(3, '[1, 5]'),
        deletePet(3, null),
      ],
      noRender,
    );
    expect(results).toEqual([
      { ok: true, value: { kind: 'updated', pet: { pet: { id: 1, name: 'p0', categoryId: 1, status: 'sold' }, version: 2 } } },
      { ok: true, value: { kind: 'version_mismatch' } },
      { ok: true, value: { kind: 'updated', pet: { pet: { id: 2, name: 'q', categoryId: 1 }, version: 2 } } },
      { ok: true, value: { kind: 'not_found' } },
      { ok: true, value: 'version_mismatch' },
      { ok: true, value: 'deleted' },
      { ok: true, value: 'not_found' },
    ]);
    expect(db.prepare('SELECT id, version FROM pets ORDER BY id').all()).toEqual([
      { id: 1, version: 2 },
      { id: 2, version: 2 },
    ]);
  });

  it('renders the responses of keyed creates before the commit and records them with their pets', async () => {
    const writes = await withAlice();
    const { results } = await executeBatch(db, writes, [createPetIdempotently({ name: 'a', categoryId: 1 }, idempotency)], (pets) => {
      expect(db.inTransaction).toBe(true);
      return Promise.resolve(
        pets.map(({ created }) => ({ status: 201, headers: { Location: `/v1/pets/${created[0] as number}` }, body: Buffer.from('{}') })),
      );
    });
    expect(results[0]).toMatchObject({ ok: true, value: { kind: 'created', response: { status: 201 } } });
    expect(db.prepare('SELECT key, status FROM idempotency_keys').all()).toEqual([{ key: 'k', status: 201 }]);
  });

  it('fails a write that fails alone: the others of the batch commit', async () => {
    const writes = await withAlice();
    const { results } = await executeBatch(
      db,
      writes,
      [
        createPet({ name: 'a', categoryId: 1 }),
        // NOT NULL: the statement fails, in the middle of the batch.
        createPet({ name: null as unknown as string, categoryId: 1 }),
        createPetIdempotently({ name: 'b', categoryId: 1 }, idempotency),
        createPetIdempotently({ name: null as unknown as string, categoryId: 1 }, { ...idempotency, key: 'j' }),
        createPet({ name: 'c', categoryId: 1 }),
      ],
      (pets) => Promise.resolve(pets.map(() => ({ status: 201, headers: {}, body: Buffer.from('{}') }))),
    );
    expect(results.map((result) => result.ok)).toEqual([true, false, true, false, true]);
    expect(results[1]).toMatchObject({ ok: false, error: { code: 'SQLITE_CONSTRAINT_NOTNULL' } });
    expect(db.prepare('SELECT name FROM pets ORDER BY id').all()).toEqual([{ name: 'a' }, { name: 'b' }, { name: 'c' }]);
    expect(db.prepare('SELECT key FROM idempotency_keys').all()).toEqual([{ key: 'k' }]);
  });

  it('fails every write when the transaction itself fails, and leaves nothing behind', async () => {
    const writes = await withAlice();
    const { results } = await executeBatch(
      db,
      writes,
      [createPet({ name: 'a', categoryId: 1 }), createPetIdempotently({ name: 'b', categoryId: 1 }, idempotency)],
      () => Promise.reject(new Error('render failed')),
    );
    expect(results).toEqual([
      { ok: false, error: { message: 'render failed' } },
      { ok: false, error: { message: 'render failed' } },
    ]);
    expect(db.prepare('SELECT count(*) AS n FROM pets').get()).toEqual({ n: 0 });
  });

  it('marks a database another connection holds the write lock of as worth a retry', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'petstore-batch-')), 'store.db');
    const holder = new Database(path);
    configureConnection(holder);
    await migrateSqlite(holder);
    const waiter = new Database(path);
    configureConnection(waiter);
    waiter.pragma('busy_timeout = 10');
    holder.exec('BEGIN IMMEDIATE');
    try {
      const { results } = await executeBatch(waiter, prepareWrites(waiter), [createPet({ name: 'a', categoryId: 1 })], noRender);
      expect(results).toEqual([{ ok: false, error: { message: 'database is locked', code: 'SQLITE_BUSY', unavailable: true } }]);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
      waiter.close();
    }
  });
});
