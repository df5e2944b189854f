// The values of a stored table's columns as each backend's driver takes and gives them, where these
// differ from the JSON values the generated mappers (generated/tables.ts) deal in: the generic
// resource store (resources.ts) converts on its way in and out, so both backends return what was written.
import type { ColumnType } from '../../generated/tables.js';
import type { StoredRow } from './resources.js';
import type { StoredTable } from './stored-tables.js';

type Convert = (value: unknown) => unknown;

/** A backend's conversions, by column type; a type it stores as it is has none. NULL stays null. */
export interface ColumnCodec {
  readonly toDatabase: Partial<Record<ColumnType, Convert>>;
  readonly fromDatabase: Partial<Record<ColumnType, Convert>>;
}

/** better-sqlite3 binds no boolean (SQLite keeps 1 and 0), and SQLite keeps JSON as TEXT. */
export const SQLITE_CODEC: ColumnCodec = {
  toDatabase: { boolean: (value) => (value ? 1 : 0), json: (value) => JSON.stringify(value) },
  fromDatabase: { boolean: (value) => value === 1, json: (value) => JSON.parse(value as string) as unknown },
};

/** pg would send a JavaScript array as a PostgreSQL array: jsonb is given JSON text. pg parses jsonb and boolean itself. */
export const POSTGRES_CODEC: ColumnCodec = {
  toDatabase: { json: (value) => JSON.stringify(value) },
  fromDatabase: {},
};

/** A table's conversions, position by position, for each list of values the store passes or receives. */
export interface TableCodec {
  /** A create's values: the written columns, in order. */
  written(values: readonly unknown[]): readonly unknown[];
  /** An update's merge patch: for each patched column, its flag, then its value. */
  patch(values: readonly unknown[]): readonly unknown[];
  /** A page's filters, by property. */
  filters(filters: Readonly<Record<string, unknown>>): Record<string, unknown>;
  /** A row as read: the read columns, in order, then whatever follows (a version). */
  row<Row extends StoredRow>(row: Row): Row;
}

const same = <T>(value: T): T => value;
const IDENTITY: TableCodec = { written: same, patch: same, filters: same, row: same };

function converting(conversions: readonly (Convert | undefined)[]): <T extends readonly unknown[]>(values: T) => T {
  if (conversions.every((convert) => convert === undefined)) return same;
  return <T extends readonly unknown[]>(values: T) =>
    values.map((value, index) => {
      const convert = conversions[index];
      return convert === undefined || value === null || value === undefined ? value : convert(value);
    }) as unknown as T;
}

function tableCodec(table: StoredTable, codec: ColumnCodec): TableCodec {
  const to = (type: ColumnType) => codec.toDatabase[type];
  const needed = table.columns.some(({ type }) => to(type) !== undefined || codec.fromDatabase[type] !== undefined);
  if (!needed) return IDENTITY;
  const byProperty = new Map(table.columns.map((column) => [column.property, to(column.type)]));
  const patch = converting(table.columns.filter(({ patched }) => patched).flatMap(({ type }) => [undefined, to(type)]));
  const row = converting(table.columns.filter(({ read }) => read).map(({ type }) => codec.fromDatabase[type]));
  return {
    written: converting(table.columns.filter(({ written }) => written).map(({ type }) => to(type))),
    patch,
    filters: (filters) =>
      Object.fromEntries(
        Object.entries(filters).map(([property, value]) => {
          const convert = byProperty.get(property);
          return [property, convert === undefined || value === undefined || value === null ? value : convert(value)];
        }),
      ),
    row,
  };
}

const codecs = new WeakMap<ColumnCodec, WeakMap<StoredTable, TableCodec>>();

/** The conversions of a table on a backend, made once. */
export function codecFor(table: StoredTable, codec: ColumnCodec): TableCodec {
  let tables = codecs.get(codec);
  if (!tables) codecs.set(codec, (tables = new WeakMap()));
  let made = tables.get(table);
  if (!made) tables.set(table, (made = tableCodec(table, codec)));
  return made;
}
