import { expect, it } from 'vitest';
import { newOrderValues, ORDER_TABLE, orderFromRow, type OrderRow } from '../../generated/tables.js';
import type { Storage } from '../../src/storage/storage.js';

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
    expect(await storage.deleteRow(ORDER_TABLE, 2)).toBe(true);
    expect(await storage.deleteRow(ORDER_TABLE, 2)).toBe(false);
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
