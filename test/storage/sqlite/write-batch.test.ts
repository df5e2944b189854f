import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { petPatchValues } from '../../../src/storage/pet-table.js';
import type { Pet } from '../../../src/storage/pets.js';
import { migrateSqlite } from '../../../src/storage/sqlite/migrate.js';
import { configureConnection, prepareWrites } from '../../../src/storage/sqlite/statements.js';
import { executeBatch, type WriteOp } from '../../../src/storage/sqlite/write-batch.js';

/** A key record for alice (account 1), as the writer receives it. */
const idempotency = { accountId: 1, key: 'k', fingerprint: 'f', now: '2026-11-23T00:00:00.000Z', expiresAt: '2026-11-24T00:00:00.000Z' };

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
      { kind: 'createPet', pet: { name: 'a', categoryId: 1 } },
      { kind: 'ensureAccount', name: 'alice' },
      { kind: 'createPet', pet: { name: 'b', categoryId: 2, status: 'sold' } },
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
      [0, 1, 2].map((i) => ({ kind: 'createPet', pet: { name: `p${i}`, categoryId: 1 } })),
      noRender,
    );
    const sold = petPatchValues({ status: 'sold' });
    const { results } = await executeBatch(
      db,
      writes,
      [
        { kind: 'updatePet', id: 1, patch: sold, expected: '[1]' },
        // The same expected version again: the first update of the batch changed it.
        { kind: 'updatePet', id: 1, patch: petPatchValues({ name: 'late' }), expected: '[1]' },
        { kind: 'updatePet', id: 2, patch: petPatchValues({ name: 'q', status: null }), expected: null },
        { kind: 'updatePet', id: 9, patch: sold, expected: null },
        { kind: 'deletePet', id: 3, expected: '[2]' },
        { kind: 'deletePet', id: 3, expected: '[1, 5]' },
        { kind: 'deletePet', id: 3, expected: null },
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
    const { results } = await executeBatch(
      db,
      writes,
      [{ kind: 'createPetIdempotently', pet: { name: 'a', categoryId: 1 }, idempotency }],
      (pets) => {
        expect(db.inTransaction).toBe(true);
        return Promise.resolve(
          pets.map(({ created }) => ({ status: 201, headers: { Location: `/v1/pets/${(created as Pet).id}` }, body: Buffer.from('{}') })),
        );
      },
    );
    expect(results[0]).toMatchObject({ ok: true, value: { kind: 'created', response: { status: 201 } } });
    expect(db.prepare('SELECT key, status FROM idempotency_keys').all()).toEqual([{ key: 'k', status: 201 }]);
  });

  it('fails a write that fails alone: the others of the batch commit', async () => {
    const writes = await withAlice();
    const { results } = await executeBatch(
      db,
      writes,
      [
        { kind: 'createPet', pet: { name: 'a', categoryId: 1 } },
        // NOT NULL: the statement fails, in the middle of the batch.
        { kind: 'createPet', pet: { name: null as unknown as string, categoryId: 1 } },
        { kind: 'createPetIdempotently', pet: { name: 'b', categoryId: 1 }, idempotency },
        {
          kind: 'createPetIdempotently',
          pet: { name: null as unknown as string, categoryId: 1 },
          idempotency: { ...idempotency, key: 'j' },
        },
        { kind: 'createPet', pet: { name: 'c', categoryId: 1 } },
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
      [
        { kind: 'createPet', pet: { name: 'a', categoryId: 1 } },
        { kind: 'createPetIdempotently', pet: { name: 'b', categoryId: 1 }, idempotency },
      ],
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
      const { results } = await executeBatch(
        waiter,
        prepareWrites(waiter),
        [{ kind: 'createPet', pet: { name: 'a', categoryId: 1 } }],
        noRender,
      );
      expect(results).toEqual([{ ok: false, error: { message: 'database is locked', code: 'SQLITE_BUSY', unavailable: true } }]);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
      waiter.close();
    }
  });
});
