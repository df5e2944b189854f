import { describe, expect, it } from 'vitest';
import type { ColumnType } from '../../generated/tables.js';
import { codecFor, POSTGRES_CODEC, SQLITE_CODEC } from '../../src/storage/column-codec.js';
import type { StoredTable } from '../../src/storage/stored-tables.js';

/** A table of one column per type: `id` read only, the rest read, written and patched. */
function table(types: Record<string, ColumnType>): StoredTable {
  return {
    table: 'things',
    read: 'Thing',
    key: 'id',
    references: [],
    versioned: false,
    restrictedBy: [],
    columns: Object.entries(types).map(([property, type]) => ({
      property,
      column: property,
      type,
      read: true,
      written: property !== 'id',
      patched: property !== 'id',
    })),
  };
}

const GADGETS = table({ id: 'integer', name: 'string', active: 'boolean', tags: 'json' });

describe('column codecs', () => {
  it('gives SQLite booleans as 1 and 0 and JSON as text, and reads them back as written', () => {
    const codec = codecFor(GADGETS, SQLITE_CODEC);
    expect(codec.written(['Lamp', true, { colours: ['red'] }])).toEqual(['Lamp', 1, '{"colours":["red"]}']);
    expect(codec.row([7, 'Lamp', 0, '[1,2]'])).toEqual([7, 'Lamp', false, [1, 2]]);
    expect(codec.filters({ active: false, name: 'Lamp' })).toEqual({ active: 0, name: 'Lamp' });
  });

  it('converts a merge patch value, never its flag, and leaves NULL and absent values as they are', () => {
    const codec = codecFor(GADGETS, SQLITE_CODEC);
    // name, active, tags: each a flag, then a value.
    expect(codec.patch([1, 'Lamp', 1, true, 1, null])).toEqual([1, 'Lamp', 1, 1, 1, null]);
    expect(codec.written(['Lamp', null, undefined])).toEqual(['Lamp', null, undefined]);
    expect(codec.row([7, 'Lamp', null, null])).toEqual([7, 'Lamp', null, null]);
  });

  it('gives PostgreSQL JSON as text (not as an array), and reads what pg parsed as it is', () => {
    const codec = codecFor(GADGETS, POSTGRES_CODEC);
    expect(codec.written(['Lamp', true, [1, 2]])).toEqual(['Lamp', true, '[1,2]']);
    const row = [7, 'Lamp', true, [1, 2]];
    expect(codec.row(row)).toBe(row);
  });

  it('makes one codec per table and backend, and none that converts where no column needs it', () => {
    const plain = table({ id: 'integer', name: 'string', weight: 'number' });
    expect(codecFor(GADGETS, SQLITE_CODEC)).toBe(codecFor(GADGETS, SQLITE_CODEC));
    const values = ['Lamp', 2.5];
    expect(codecFor(plain, SQLITE_CODEC).written(values)).toBe(values);
  });
});
