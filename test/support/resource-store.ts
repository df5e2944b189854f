import { describe, expect, it } from 'vitest';
import { newOrderValues, ORDER_TABLE, orderFromRow, type OrderRow } from '../../generated/tables.js';
import type { IdempotencyRequest, RecordedResponse } from '../../src/storage/idempotency.js';
import type {
  ExpectedRowVersions,
  MaybePromise,
  RowCreation,
  RowDeletion,
  RowPage,
  RowUpdate,
  StoredRow,
} from '../../src/storage/resources.js';
import type { Storage } from '../../src/storage/storage.js';
import type { StoredTable } from '../../src/storage/stored-tables.js';
import { at, createKeyed, T0 } from './idempotency.js';
import { renderAsJson } from './operation-request.js';

/**
 * The generic resource store's contract (src/storage/resources.ts), on the orders table that
 * openapi.yaml declares: what both backends' tests run against their own store.
 */
export function resourceStoreContract(open: () => Promise<Storage>): void {
  const order = async (storage: Storage, petId: number, quantity = 1) => {
    const outcome = await storage.insertRow<OrderRow>(ORDER_TABLE, newOrderValues({ petId, quantity }));
    if (outcome.kind !== 'created') throw new Error(`order for pet ${petId} refused`);
    return orderFromRow(outcome.row);
  };

  it('inserts a row with the server-set defaults, reads it back by key and in pages in key order, and deletes it', async () => {
    const storage = await open();
    const { id: petId } = await storage.createPet({ name: 'Rex', categoryId: 3 });
    const outcome = await storage.insertRow<OrderRow>(ORDER_TABLE, newOrderValues({ petId, quantity: 2, shipDate: '2030-01-01' }));
    expect(outcome).toEqual({ kind: 'created', row: [1, petId, 2, '2030-01-01', 'placed'] });
    await order(storage, petId);
    await order(storage, petId);
    expect(await storage.getRow(ORDER_TABLE, 1)).toEqual([1, petId, 2, '2030-01-01', 'placed']);
    expect(await storage.getRow(ORDER_TABLE, 4)).toBeUndefined();
    const ids = async (afterKey: number | undefined, filters: Record<string, string | undefined> = {}) =>
      (await storage.listRows<OrderRow>(ORDER_TABLE, { limit: 2, ...(afterKey && { afterKey }), filters })).map(([id]) => id);
    expect(await ids(undefined)).toEqual([1, 2]);
    expect(await ids(2)).toEqual([3]);
    expect(await ids(undefined, { status: 'placed' })).toEqual([1, 2]);
    expect(await ids(undefined, { status: 'delivered' })).toEqual([]);
    expect(await ids(undefined, { status: undefined })).toEqual([1, 2]);
    expect(await storage.deleteRow(ORDER_TABLE, 2)).toEqual({ kind: 'deleted' });
    expect(await storage.deleteRow(ORDER_TABLE, 2)).toEqual({ kind: 'not_found' });
    expect(await ids(1)).toEqual([3]);
  });

  it('refuses a row whose foreign key names no row, naming the property, and stores nothing', async () => {
    const storage = await open();
    expect(await storage.insertRow(ORDER_TABLE, newOrderValues({ petId: 42, quantity: 1 }))).toEqual({
      kind: 'missing_reference',
      property: 'petId',
    });
    expect(await storage.listRows(ORDER_TABLE, { limit: 10, filters: {} })).toEqual([]);
  });

  describe('under an Idempotency-Key', () => {
    const HOUR_MS = 3_600_000;
    const keyed = (accountId: number, key: string, fingerprint: string) => ({
      accountId,
      key,
      fingerprint,
      now: T0,
      expiresAt: at(HOUR_MS),
    });
    const insertKeyed = (storage: Storage, petId: number, idempotency: IdempotencyRequest) =>
      storage.insertRowIdempotently<OrderRow>(ORDER_TABLE, newOrderValues({ petId, quantity: 1 }), idempotency, (row) =>
        renderAsJson({ status: 201, body: orderFromRow(row), headers: { Location: `/v1/store/orders/${row[0]}` } }),
      );
    const orderIds = async (storage: Storage) =>
      (await storage.listRows<OrderRow>(ORDER_TABLE, { limit: 10, filters: {} })).map(([id]) => id);

    it('inserts the row and records its response; a retry replays the response byte for byte and inserts nothing', async () => {
      const storage = await open();
      const { id: accountId } = await storage.ensureAccount('alice');
      const { id: petId } = await storage.createPet({ name: 'Rex', categoryId: 3 });
      const first = await insertKeyed(storage, petId, keyed(accountId, 'k1', 'f1'));
      const expected = {
        status: 201,
        headers: { Location: '/v1/store/orders/1' },
        body: Buffer.from(JSON.stringify({ id: 1, petId, quantity: 1, status: 'placed' })),
      };
      expect(first).toEqual({ kind: 'created', response: expected });
      const again = await insertKeyed(storage, petId, { ...keyed(accountId, 'k1', 'f1'), now: at(1000) });
      expect(again.kind).toBe('replayed');
      const { response } = again as { response: RecordedResponse };
      expect(response.status).toBe(201);
      expect(response.headers).toEqual(expected.headers);
      expect(Buffer.from(response.body).equals(expected.body)).toBe(true);
      expect(await orderIds(storage)).toEqual([1]);
    });

    it("refuses the key with another fingerprint, a pet's key included, and inserts nothing", async () => {
      const storage = await open();
      const { id: accountId } = await storage.ensureAccount('alice');
      const { id: petId } = await storage.createPet({ name: 'Rex', categoryId: 3 });
      await insertKeyed(storage, petId, keyed(accountId, 'k1', 'f1'));
      expect(await insertKeyed(storage, petId, keyed(accountId, 'k1', 'f2'))).toEqual({ kind: 'key_reused' });
      const [pet] = await createKeyed(storage, accountId, ['pet-key'], T0, at(HOUR_MS));
      expect(pet!.kind).toBe('created');
      expect(await insertKeyed(storage, petId, keyed(accountId, 'pet-key', 'an order'))).toEqual({ kind: 'key_reused' });
      expect(await orderIds(storage)).toEqual([1]);
    });

    it('records nothing for a reference that names no row, so a retry is checked afresh', async () => {
      const storage = await open();
      const { id: accountId } = await storage.ensureAccount('alice');
      expect(await insertKeyed(storage, 42, keyed(accountId, 'k1', 'f1'))).toEqual({ kind: 'missing_reference', property: 'petId' });
      const { id: petId } = await storage.createPet({ name: 'Rex', categoryId: 3 });
      expect((await insertKeyed(storage, petId, keyed(accountId, 'k1', 'f1'))).kind).toBe('created');
      // One order: PostgreSQL's sequence may have spent a key on the failed insert.
      expect(await orderIds(storage)).toHaveLength(1);
    });

    it('inserts once for two requests with one key at once: the other is in progress, or replays it once done', async () => {
      const storage = await open();
      const { id: accountId } = await storage.ensureAccount('alice');
      const { id: petId } = await storage.createPet({ name: 'Rex', categoryId: 3 });
      const outcomes = await Promise.all([1, 2].map(() => insertKeyed(storage, petId, keyed(accountId, 'k1', 'f1'))));
      const kinds = outcomes.map(({ kind }) => kind).sort();
      expect(kinds[0]).toBe('created');
      expect(['in_progress', 'replayed']).toContain(kinds[1]);
      expect(await orderIds(storage)).toEqual([1]);
    });
  });

  it("deletes a row's referencing rows with it (ON DELETE CASCADE)", async () => {
    const storage = await open();
    const rex = await storage.createPet({ name: 'Rex', categoryId: 3 });
    const tom = await storage.createPet({ name: 'Tom', categoryId: 4 });
    await order(storage, rex.id);
    const kept = await order(storage, tom.id);
    expect(await storage.deletePet(rex.id)).toBe('deleted');
    expect((await storage.listRows<OrderRow>(ORDER_TABLE, { limit: 10, filters: {} })).map(orderFromRow)).toEqual([kept]);
  });
}

/** The generic store's statements on one backend, over tables the test makes (restrictContract). */
export interface RowStatements {
  insertRow(table: StoredTable, values: readonly unknown[]): MaybePromise<RowCreation<StoredRow>>;
  listRows(table: StoredTable, page: RowPage): MaybePromise<StoredRow[]>;
  updateRow(table: StoredTable, key: number, patch: readonly unknown[], expected?: ExpectedRowVersions): MaybePromise<RowUpdate<StoredRow>>;
  deleteRow(table: StoredTable, key: number, expected?: ExpectedRowVersions): MaybePromise<RowDeletion>;
}

/**
 * Owners and their leashes: a leash's owner cannot be deleted while the leash names it (ON DELETE
 * RESTRICT), and each owner has a version (`x-storage`'s `versioned`), raised by an update of its name.
 */
const LEASH_CONSTRAINT = 'leashes_owner_id_fkey';
const OWNERS: StoredTable = {
  table: 'owners',
  read: 'Owner',
  written: 'NewOwner',
  key: 'id',
  versioned: true,
  references: [],
  restrictedBy: [{ table: 'leashes', column: 'owner_id', constraint: LEASH_CONSTRAINT }],
  columns: [
    { property: 'id', column: 'id', type: 'integer', read: true, written: false, patched: false },
    { property: 'name', column: 'name', type: 'string', read: true, written: true, patched: true },
    { property: 'version', column: 'version', type: 'integer', read: false, written: false, patched: false },
  ],
};
const LEASHES: StoredTable = {
  table: 'leashes',
  read: 'Leash',
  written: 'NewLeash',
  key: 'id',
  versioned: false,
  references: [{ property: 'ownerId', column: 'owner_id', constraint: LEASH_CONSTRAINT, table: 'owners', key: 'id' }],
  restrictedBy: [],
  columns: [
    { property: 'id', column: 'id', type: 'integer', read: true, written: false, patched: false },
    { property: 'ownerId', column: 'owner_id', type: 'integer', read: true, written: true, patched: false },
  ],
};

/** The tables of ownersContract, given the backend's key column definition (one the database assigns). */
export function restrictTables(assignedKey: string): string[] {
  return [
    `CREATE TABLE "owners" ("id" ${assignedKey}, "name" TEXT NOT NULL, "version" INTEGER NOT NULL DEFAULT 1)`,
    `CREATE TABLE "leashes" ("id" ${assignedKey}, "owner_id" INTEGER NOT NULL CONSTRAINT "${LEASH_CONSTRAINT}" REFERENCES "owners" ("id") ON DELETE RESTRICT)`,
  ];
}

/**
 * Tables the test makes, as the generator would describe them (restrictTables): a reference with
 * `onDelete: restrict`, and a versioned table's compare-and-set writes (If-Match).
 */
export function ownersContract(open: () => Promise<RowStatements>): void {
  it('returns the version after the read columns, raises it on each update, and writes only at an expected version', async () => {
    const store = await open();
    const created = await store.insertRow(OWNERS, ['Ann']);
    if (created.kind !== 'created') throw new Error('owner refused');
    const [id] = created.row as [number];
    expect(created.row).toEqual([id, 'Ann', 1]);
    expect(await store.updateRow(OWNERS, id, [1, 'Bo'], [1])).toEqual({ kind: 'updated', row: [id, 'Bo', 2] });
    expect(await store.updateRow(OWNERS, id, [1, 'Cy'], [1, 3])).toEqual({ kind: 'precondition_failed' });
    expect(await store.updateRow(OWNERS, id, [1, 'Cy'], [])).toEqual({ kind: 'precondition_failed' });
    // A patch that sets nothing writes nothing: the version stays, and If-Match still has to hold.
    expect(await store.updateRow(OWNERS, id, [0, null])).toEqual({ kind: 'updated', row: [id, 'Bo', 2] });
    expect(await store.updateRow(OWNERS, id, [0, null], [1])).toEqual({ kind: 'precondition_failed' });
    expect(await store.updateRow(OWNERS, id + 1, [0, null])).toEqual({ kind: 'not_found' });
    expect(await store.updateRow(OWNERS, id, [1, 'Bo'])).toEqual({ kind: 'updated', row: [id, 'Bo', 3] });
    expect(await store.updateRow(OWNERS, id + 1, [1, 'Cy'], [1])).toEqual({ kind: 'not_found' });
    expect(await store.deleteRow(OWNERS, id, [2])).toEqual({ kind: 'precondition_failed' });
    expect(await store.listRows(OWNERS, { limit: 10, filters: {} })).toEqual([[id, 'Bo', 3]]);
    expect(await store.deleteRow(OWNERS, id + 1, [1])).toEqual({ kind: 'not_found' });
    expect(await store.deleteRow(OWNERS, id, [2, 3])).toEqual({ kind: 'deleted' });
  });

  it('refuses the delete of a row a restricting reference names, naming the constraint, and deletes it once it is free', async () => {
    const store = await open();
    const owner = await store.insertRow(OWNERS, ['Ann']);
    const other = await store.insertRow(OWNERS, ['Bob']);
    if (owner.kind !== 'created' || other.kind !== 'created') throw new Error('owners refused');
    const leash = await store.insertRow(LEASHES, [owner.row[0]]);
    if (leash.kind !== 'created') throw new Error('leash refused');
    expect(await store.deleteRow(OWNERS, owner.row[0] as number)).toEqual({ kind: 'restricted', constraint: LEASH_CONSTRAINT });
    expect(await store.listRows(OWNERS, { limit: 10, filters: {} })).toEqual([owner.row, other.row]);
    expect(await store.deleteRow(OWNERS, other.row[0] as number)).toEqual({ kind: 'deleted' });
    expect(await store.deleteRow(LEASHES, leash.row[0] as number)).toEqual({ kind: 'deleted' });
    expect(await store.deleteRow(OWNERS, owner.row[0] as number)).toEqual({ kind: 'deleted' });
    expect(await store.listRows(OWNERS, { limit: 10, filters: {} })).toEqual([]);
  });
}
