import { expect, it } from 'vitest';
import { createTableSql } from '../../scripts/generate/migrations.js';
import { columnsOf, persistedSchemas, type PersistedSchemas } from '../../scripts/generate/tables.js';
import type { OpenApiDocument } from '../../src/contract/spec.js';
import type { MaybePromise, RowCreation, RowKey, RowPage, RowUpdate, StoredRow } from '../../src/storage/resources.js';
import type { StoredTable } from '../../src/storage/stored-tables.js';

/**
 * A resource of every shape x-storage keeps, as a 3.0 document of another API might declare it: a
 * UUID key the server makes (readOnly), a boolean with a default, an int64, a number, a date, an enum,
 * a 3.0 nullable string, a 3.1 nullable boolean, a nested object and an array of objects.
 */
export const GADGET_DOCUMENT: OpenApiDocument = {
  openapi: '3.0.3',
  info: { title: 'gadgets', version: '1' },
  paths: {},
  components: {
    schemas: {
      Gadget: {
        type: 'object',
        'x-storage': { table: 'gadgets', key: 'id', written: 'Gadget', patched: 'GadgetPatch' },
        required: ['name'],
        properties: {
          id: { type: 'string', format: 'uuid', readOnly: true },
          name: { type: 'string' },
          active: { type: 'boolean', default: true },
          serial: { type: 'integer', format: 'int64' },
          weight: { type: 'number' },
          madeOn: { type: 'string', format: 'date' },
          size: { type: 'string', enum: ['S', 'M', 'L'] },
          note: { type: 'string', nullable: true },
          spare: { anyOf: [{ type: 'boolean' }, { type: 'null' }] },
          maker: { $ref: '#/components/schemas/Maker' },
          parts: { type: 'array', items: { $ref: '#/components/schemas/Maker' } },
        },
      },
      GadgetPatch: {
        type: 'object',
        properties: {
          active: { type: 'boolean' },
          maker: { $ref: '#/components/schemas/Maker' },
          note: { type: 'string', nullable: true },
        },
      },
      Maker: { type: 'object', properties: { name: { type: 'string' }, tags: { type: 'array', items: { type: 'string' } } } },
      // A key the client sends.
      Label: {
        type: 'object',
        'x-storage': { table: 'labels', key: 'code', written: 'Label' },
        required: ['code'],
        properties: { code: { type: 'string' }, colour: { type: 'string' } },
      },
    },
  },
};

const [persisted, labels] = persistedSchemas(GADGET_DOCUMENT) as [PersistedSchemas, PersistedSchemas];

/** A table as generated/tables.ts would describe it. */
function describedTable(stored: PersistedSchemas): StoredTable {
  return {
    table: stored.table,
    read: stored.read,
    written: stored.written!,
    key: stored.key,
    versioned: false,
    references: [],
    restrictedBy: [],
    columns: columnsOf(GADGET_DOCUMENT, stored).map(({ property, column, type, read, written, patched }) => ({
      property,
      column,
      type,
      read,
      written,
      patched,
    })),
  };
}

export const GADGETS = describedTable(persisted);
const LABELS = describedTable(labels);

/** The DDL the backend's generated migration makes the tables of GADGET_DOCUMENT with. */
export const shapeTablesSql = (backend: 'sqlite' | 'postgres') =>
  [persisted, labels].map((stored) => createTableSql(GADGET_DOCUMENT, stored, backend)).join(';\n');

/** The generic store's statements on one backend, over the gadgets table the test makes. */
export interface ShapeStatements {
  insertRow(table: StoredTable, values: readonly unknown[]): MaybePromise<RowCreation<StoredRow>>;
  getRow(table: StoredTable, key: RowKey): MaybePromise<StoredRow | undefined>;
  listRows(table: StoredTable, page: RowPage): MaybePromise<StoredRow[]>;
  updateRow(table: StoredTable, key: RowKey, patch: readonly unknown[]): MaybePromise<RowUpdate<StoredRow>>;
}

const column = (property: string) => GADGETS.columns.filter(({ read }) => read).findIndex((candidate) => candidate.property === property);
const written = (gadget: Record<string, unknown>) =>
  GADGETS.columns.filter((c) => c.written).map(({ property }) => gadget[property] ?? null);

/** Every shape goes in as JSON and comes back as the same JSON, on insert, read, list and update. */
export function shapesContract(open: () => Promise<ShapeStatements>): void {
  const full = {
    name: 'Lamp',
    active: false,
    serial: 9_007_199_254_740_991,
    weight: 1.25,
    madeOn: '2024-02-29',
    size: 'M',
    note: null,
    spare: true,
    maker: { name: 'Acme', tags: ['a', 'b'] },
    parts: [{ name: 'bulb' }, { name: 'shade', tags: [] }],
  };

  it('stores a row of every shape and returns each value as written, the UUID key made by the database', async () => {
    const store = await open();
    const created = await store.insertRow(GADGETS, written(full));
    if (created.kind !== 'created') throw new Error('gadget refused');
    const id = created.row[column('id')] as string;
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const expected = [id, ...Object.values(full)];
    expect(created.row).toEqual(expected);
    expect(await store.getRow(GADGETS, id)).toEqual(expected);
    expect(typeof (await store.getRow(GADGETS, id))![column('active')]).toBe('boolean');
    expect(await store.getRow(GADGETS, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });

  it('keeps an absent property as NULL, filters on a boolean, and pages by a string key', async () => {
    const store = await open();
    // The generated mapper gives an absent property its schema's default (active: true): the rest are NULL.
    const plain = await store.insertRow(GADGETS, written({ name: 'Plain', active: true }));
    const off = await store.insertRow(GADGETS, written({ ...full, name: 'Off' }));
    if (plain.kind !== 'created' || off.kind !== 'created') throw new Error('gadgets refused');
    expect(plain.row).toEqual([plain.row[0], 'Plain', true, null, null, null, null, null, null, null, null]);
    const names = async (page: Partial<RowPage>) =>
      (await store.listRows(GADGETS, { limit: 10, filters: {}, ...page })).map((row) => row[column('name')]);
    expect(await names({ filters: { active: true } })).toEqual(['Plain']);
    expect(await names({ filters: { active: false } })).toEqual(['Off']);
    const [first, second] = [plain.row[0], off.row[0]].sort() as [string, string];
    expect((await store.listRows(GADGETS, { limit: 1, filters: {} })).map(([key]) => key)).toEqual([first]);
    expect((await store.listRows(GADGETS, { limit: 10, afterKey: first, filters: {} })).map(([key]) => key)).toEqual([second]);
    // A list whose operation declares no limit asks for every row.
    expect(await store.listRows(GADGETS, { limit: Number.MAX_SAFE_INTEGER, filters: {} })).toHaveLength(2);
  });

  // The patch's values are in the table's column order: active, note, maker.
  it('applies a merge patch of a boolean, a nullable string and a nested object', async () => {
    const store = await open();
    const created = await store.insertRow(GADGETS, written(full));
    if (created.kind !== 'created') throw new Error('gadget refused');
    const id = created.row[0] as string;
    const maker = { name: 'Other', tags: ['c'] };
    const updated = await store.updateRow(GADGETS, id, [1, true, 1, 'fragile', 1, maker]);
    expect(updated).toEqual({ kind: 'updated', row: [id, ...Object.values({ ...full, active: true, maker, note: 'fragile' })] });
    const cleared = await store.updateRow(GADGETS, id, [0, null, 1, null, 0, null]);
    expect(cleared).toEqual({ kind: 'updated', row: [id, ...Object.values({ ...full, active: true, maker, note: null })] });
  });

  it('refuses a second row with a key the client sent, storing nothing', async () => {
    const store = await open();
    expect(await store.insertRow(LABELS, ['red', '#f00'])).toEqual({ kind: 'created', row: ['red', '#f00'] });
    expect(await store.insertRow(LABELS, ['red', '#e00'])).toEqual({ kind: 'duplicate_key' });
    expect(await store.listRows(LABELS, { limit: 10, filters: {} })).toEqual([['red', '#f00']]);
  });
}
