// The pets table as both backends use it, derived from generated/tables.ts (from openapi.yaml's Pet
// and NewPet): no backend lists the pet's fields itself. Pets are read as arrays (better-sqlite3's raw
// mode, pg's rowMode 'array'), since building a keyed object per row is most of the cost of reading a
// page and the row becomes a Pet right after (petFromRow).
import { PET_TABLE, type ColumnType } from '../../generated/tables.js';

export { newPetValues, petFromRow, type ColumnType, type NewPetValues, type PetRow } from '../../generated/tables.js';

type PetColumn = (typeof PET_TABLE.columns)[number];

/** The table's name, for the statements that look at its columns. */
export const PET_TABLE_NAME = PET_TABLE.table;

/** Column names quoted, so that any property's name is one (`order`, `user`). */
const quoted = (column: string) => `"${column}"`;

/** The columns a create inserts, in NewPetValues' order. */
export const NEW_PET_COLUMNS: readonly PetColumn[] = PET_TABLE.columns.filter((column) => column.written);

/** Pet's columns, in PetRow's order: what every read of pets selects and every insert returns. */
const PET_COLUMNS: readonly PetColumn[] = PET_TABLE.columns.filter((column) => column.read);

export const PET_COLUMN_COUNT = PET_COLUMNS.length;

/** Pet's columns, as a select list. */
export const PET_COLUMN_LIST = PET_COLUMNS.map((column) => quoted(column.column)).join(', ');

/** NewPet's columns, as an insert's list. */
export const NEW_PET_COLUMN_LIST = NEW_PET_COLUMNS.map((column) => quoted(column.column)).join(', ');

/** The column of each property, for the statements that filter or order by one. */
export const PET_COLUMN = Object.fromEntries(PET_TABLE.columns.map((column) => [column.property, quoted(column.column)])) as Record<
  PetColumn['property'],
  string
>;

/** Where a backend's migrations are, and its SQL type for each JSON type: what a missing column's message names. */
export interface BackendSchema {
  migrations: string;
  sqlTypes: Record<ColumnType, string>;
}

/**
 * The columns of the pets table that Pet or NewPet have a property for and the migrated table
 * lacks (`present`: its columns, as the database lists them), as the error that says where to add
 * them: a property added to openapi.yaml without its migration stops the store from opening,
 * rather than being dropped on every write. Undefined when none is missing.
 */
export function missingPetColumns(present: Iterable<string>, { migrations, sqlTypes }: BackendSchema): Error | undefined {
  const columns = new Set(present);
  const missing = PET_TABLE.columns.filter((column) => !columns.has(column.column));
  if (missing.length === 0) return undefined;
  const what = missing.map(({ property, column, type, read, written }) => {
    const schemas = [...(read ? [PET_TABLE.read] : []), ...(written ? [PET_TABLE.written] : [])].map((schema) => `${schema}.${property}`);
    return `${schemas.join(' and ')} (column ${quoted(column)} ${sqlTypes[type]})`;
  });
  return new Error(
    `table ${PET_TABLE.table} has no column for ${what.join(', ')} of openapi.yaml: ` +
      `add ${missing.length === 1 ? 'it' : 'them'} in a new migration in ${migrations} (docs/adding-a-field.md)`,
  );
}
