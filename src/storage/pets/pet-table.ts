// The pets table as both backends use it, derived from generated/tables.ts (from openapi.yaml's Pet
// and NewPet): no backend lists the pet's fields itself. Pets are read as arrays (better-sqlite3's raw
// mode, pg's rowMode 'array'), since building a keyed object per row is most of the cost of reading a
// page and the row becomes a Pet right after (petFromRow).
import { PET_TABLE, petFromRow, type PetRow } from '../../../generated/tables.js';
import type { VersionedPet } from './pets.js';

export {
  newPetValues,
  petFromRow,
  petPatchValues,
  type ColumnType,
  type NewPetValues,
  type PetPatchValues,
  type PetRow,
} from '../../../generated/tables.js';

type PetColumn = (typeof PET_TABLE.columns)[number];

/** Column names quoted, so that any property's name is one (`order`, `user`). */
const quoted = (column: string) => `"${column}"`;

/** The columns a create inserts, in NewPetValues' order. */
export const NEW_PET_COLUMNS: readonly PetColumn[] = PET_TABLE.columns.filter((column) => column.written);

/** Pet's columns, in PetRow's order: what every read of pets selects and every insert returns. */
const PET_COLUMNS: readonly PetColumn[] = PET_TABLE.columns.filter((column) => column.read);

export const PET_COLUMN_COUNT = PET_COLUMNS.length;

/** Where a pet row has the pet's id, wherever the spec puts the property. */
export const PET_ID_INDEX = PET_COLUMNS.findIndex((column) => column.property === PET_TABLE.key);

/** Pet's columns, as a select list. */
export const PET_COLUMN_LIST = PET_COLUMNS.map((column) => quoted(column.column)).join(', ');

/** NewPet's columns, as an insert's list. */
export const NEW_PET_COLUMN_LIST = NEW_PET_COLUMNS.map((column) => quoted(column.column)).join(', ');

/**
 * The pet's version (VersionedPet): a column of storage's own, no property of Pet, so not in
 * generated/tables.ts. Its DEFAULT is FIRST_PET_VERSION, and every update raises it by one.
 */
export const VERSION_COLUMN = quoted('version');

/** A row with the pet's version after Pet's columns. */
export type VersionedPetRow = [...PetRow, version: number];

/** Pet's columns and the version, as a select list: the reads and writes of one pet. */
export const VERSIONED_PET_COLUMN_LIST = `${PET_COLUMN_LIST}, ${VERSION_COLUMN}`;

export function versionedPetFromRow(row: VersionedPetRow): VersionedPet {
  // petFromRow reads Pet's columns by position and never the version after them.
  return { pet: petFromRow(row), version: row[PET_COLUMN_COUNT] as number };
}

/** PetPatch's columns, in PetPatchValues' order (a flag and a value for each). */
const PATCHED_COLUMNS: readonly PetColumn[] = PET_TABLE.columns.filter((column) => column.patched);

/**
 * The SET list of an update: each of PetPatch's columns set from its value where the patch has it
 * (its flag is 1) and kept otherwise, then the version raised. `parameter(n)` is the backend's n-th
 * parameter (1-based), PetPatchValues' being the n-th from `first` on, in their order.
 */
export function petPatchAssignments(parameter: (n: number) => string, first: number): string {
  const assignments = PATCHED_COLUMNS.map(({ column }, index) => {
    const given = parameter(first + 2 * index);
    const value = parameter(first + 2 * index + 1);
    return `${quoted(column)} = CASE WHEN ${given} = 1 THEN ${value} ELSE ${quoted(column)} END`;
  });
  return [...assignments, `${VERSION_COLUMN} = ${VERSION_COLUMN} + 1`].join(', ');
}

/** The column of each property, for the statements that filter or order by one. */
export const PET_COLUMN = Object.fromEntries(PET_TABLE.columns.map((column) => [column.property, quoted(column.column)])) as Record<
  PetColumn['property'],
  string
>;

/** The pets table's name, as the generic resource store knows it. */
export const PET_TABLE_NAME = PET_TABLE.table;
