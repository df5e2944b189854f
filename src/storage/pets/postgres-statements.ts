// The pets' statements on PostgreSQL, each written once.
import type { Statement } from '../postgres/queries.js';
import { POSTGRES_TYPES, UNEXPIRED_RECORD } from '../postgres/statements.js';
import {
  NEW_PET_COLUMN_LIST,
  NEW_PET_COLUMNS,
  PET_COLUMN,
  PET_COLUMN_COUNT,
  PET_COLUMN_LIST,
  petPatchAssignments,
  VERSION_COLUMN,
  VERSIONED_PET_COLUMN_LIST,
} from './pet-table.js';

/** `$from, $from+1, …`: a parameter for each of NewPet's columns. */
const newPetParameters = (from: number) => NEW_PET_COLUMNS.map((_, index) => `$${from + index}`).join(', ');

export const GET_PET: Statement = { name: 'get-pet', text: `SELECT ${VERSIONED_PET_COLUMN_LIST} FROM pets WHERE ${PET_COLUMN.id} = $1` };

/**
 * The condition of a conditional write on pet $1: $2 is null (any version) or the versions it accepts.
 * Under READ COMMITTED, a write that waited for another's lock on the row checks the condition again
 * against the row that one committed: of two writes that expect one version, the second matches nothing.
 */
const PET_AT_EXPECTED_VERSION = `${PET_COLUMN.id} = $1 AND ($2::bigint[] IS NULL OR ${VERSION_COLUMN} = ANY ($2::bigint[]))`;

/** $1 the pet's id, $2 the versions it may have (null: any), then PetPatchValues. */
export const UPDATE_PET: Statement = {
  name: 'update-pet',
  text: `UPDATE pets SET ${petPatchAssignments((n) => `$${n}`, 3)} WHERE ${PET_AT_EXPECTED_VERSION} RETURNING ${VERSIONED_PET_COLUMN_LIST}`,
};

export const DELETE_PET: Statement = {
  name: 'delete-pet',
  text: `DELETE FROM pets WHERE ${PET_AT_EXPECTED_VERSION} RETURNING ${PET_COLUMN.id}`,
};

export const PET_EXISTS: Statement = { name: 'pet-exists', text: `SELECT 1 FROM pets WHERE ${PET_COLUMN.id} = $1` };

export const LIST_PETS: Statement = {
  name: 'list-pets',
  text: `SELECT ${PET_COLUMN_LIST} FROM pets WHERE ${PET_COLUMN.id} > $1 ORDER BY ${PET_COLUMN.id} LIMIT $2`,
};

/**
 * A page of one status, in id order. Sent unnamed, so planned on every run for the status it asks
 * for: the generic plan that PostgreSQL may settle on for a named statement after five runs assumes
 * an average status and walks the primary key, filtering, which for a rare status reads a hundred
 * rows for every one it returns.
 */
export const LIST_PETS_BY_STATUS: Statement = {
  text: `SELECT ${PET_COLUMN_LIST} FROM pets WHERE ${PET_COLUMN.status} = $1 AND ${PET_COLUMN.id} > $2 ORDER BY ${PET_COLUMN.id} LIMIT $3`,
};

export const INSERT_PET: Statement = {
  name: 'insert-pet',
  text: `INSERT INTO pets (${NEW_PET_COLUMN_LIST}) VALUES (${newPetParameters(1)}) RETURNING ${PET_COLUMN_LIST}`,
};

/**
 * A batch of pets in one statement (one round trip, one commit): an array per column. The rows are
 * inserted in the order of the arrays, so their identity ids increase in that order: sorted by id,
 * the rows RETURNING gives back line up with the pets sent.
 */
export const INSERT_PETS: Statement = {
  name: 'insert-pets',
  text: `INSERT INTO pets (${NEW_PET_COLUMN_LIST})
  SELECT ${NEW_PET_COLUMN_LIST}
    FROM unnest(${NEW_PET_COLUMNS.map((column, index) => `$${index + 1}::${POSTGRES_TYPES[column.type]}[]`).join(', ')})
         WITH ORDINALITY AS t(${NEW_PET_COLUMN_LIST}, n)
   ORDER BY n
  RETURNING ${PET_COLUMN_LIST}`,
};

/**
 * The key's unexpired record, or else (in the same statement) the new pet: one row either way, the
 * record's four columns then the pet's (each part null where it is not there).
 */
export const RECORD_OR_NEW_PET: Statement = {
  name: 'get-idempotency-record-or-insert-pet',
  text: `
  WITH record AS (${UNEXPIRED_RECORD}
  ), created AS (
    INSERT INTO pets (${NEW_PET_COLUMN_LIST})
    SELECT ${newPetParameters(4)} WHERE NOT EXISTS (SELECT FROM record)
    RETURNING ${PET_COLUMN_LIST}
  )
  SELECT fingerprint, status, headers, body, ${Array<string>(PET_COLUMN_COUNT).fill('NULL').join(', ')} FROM record
  UNION ALL
  SELECT NULL, NULL, NULL, NULL, ${PET_COLUMN_LIST} FROM created`,
};
