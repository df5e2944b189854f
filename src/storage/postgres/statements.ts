import {
  NEW_PET_COLUMN_LIST,
  NEW_PET_COLUMNS,
  PET_COLUMN,
  PET_COLUMN_COUNT,
  PET_COLUMN_LIST,
  petPatchAssignments,
  VERSION_COLUMN,
  VERSIONED_PET_COLUMN_LIST,
  type ColumnType,
} from '../pet-table.js';
import { EXPIRED_RECORDS_PER_WRITE } from '../rows.js';
import type { Statement } from './queries.js';

// Every statement the backend runs on its data (migrate.ts has the schema's own), each written once.

/** How PostgreSQL stores each JSON type a pets column holds (see migrations.ts). */
export const POSTGRES_TYPES: Record<ColumnType, string> = {
  string: 'text',
  integer: 'bigint',
  number: 'double precision',
  boolean: 'boolean',
  json: 'jsonb',
};

/** Timestamps as the rows of both backends carry them: RFC 3339 in UTC, to the millisecond. */
const utc = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

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

/** The unexpired record of account $1's key $2 at $3. */
const UNEXPIRED_RECORD = `
    SELECT fingerprint, status, headers, body FROM idempotency_keys
     WHERE account_id = $1 AND key = $2 AND expires_at > $3`;

/** The key's unexpired record, if it has one. */
export const IDEMPOTENCY_RECORD: Statement = { name: 'get-idempotency-record', text: UNEXPIRED_RECORD };

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

/**
 * The new record of a key, replacing its expired one if there is one (the caller holds the key's
 * lock and saw no unexpired record), after clearing away a few other expired records: SKIP LOCKED,
 * so that concurrent requests never wait for each other's clean-up.
 */
export const PUT_IDEMPOTENCY_RECORD: Statement = {
  name: 'put-idempotency-record',
  text: `
  WITH expired AS (
    DELETE FROM idempotency_keys WHERE (account_id, key) IN (
      SELECT account_id, key FROM idempotency_keys
       WHERE expires_at <= $7 AND NOT (account_id = $1 AND key = $2)
       ORDER BY expires_at LIMIT ${EXPIRED_RECORDS_PER_WRITE}
       FOR UPDATE SKIP LOCKED)
  )
  INSERT INTO idempotency_keys (account_id, key, fingerprint, status, headers, body, created_at, expires_at)
  VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
  ON CONFLICT (account_id, key) DO UPDATE SET
    fingerprint = EXCLUDED.fingerprint, status = EXCLUDED.status, headers = EXCLUDED.headers,
    body = EXCLUDED.body, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at`,
};

/** The no-op update makes RETURNING yield the row whether it was inserted now or existed. */
export const ENSURE_ACCOUNT: Statement = {
  name: 'ensure-account',
  text: `INSERT INTO accounts (name) VALUES ($1) ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name
  RETURNING id, name, ${utc('created_at')} AS created_at`,
};

const KEY_COLUMNS = `k.id, k.account_id, a.name AS account_name, k.display_prefix, ${utc('k.created_at')} AS created_at, ${utc('k.revoked_at')} AS revoked_at`;

export const INSERT_KEY: Statement = {
  name: 'insert-key',
  text: `WITH k AS (INSERT INTO api_keys (account_id, key_hash, display_prefix) VALUES ($1, $2, $3) RETURNING *)
  SELECT ${KEY_COLUMNS} FROM k JOIN accounts a ON a.id = k.account_id`,
};

export const FIND_ACTIVE_KEY: Statement = {
  name: 'find-active-key',
  text: `SELECT k.id AS key_id, k.account_id, a.name AS account_name
    FROM api_keys k JOIN accounts a ON a.id = k.account_id
   WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
};

export const LIST_KEYS: Statement = {
  name: 'list-keys',
  text: `SELECT ${KEY_COLUMNS} FROM api_keys k JOIN accounts a ON a.id = k.account_id ORDER BY k.id`,
};

export const REVOKE_KEY: Statement = {
  name: 'revoke-key',
  text: `WITH updated AS (UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id)
  SELECT EXISTS (SELECT 1 FROM updated) AS revoked_now FROM api_keys WHERE id = $1`,
};

export const ANY_ACTIVE_KEY: Statement = { name: 'any-active-key', text: 'SELECT 1 FROM api_keys WHERE revoked_at IS NULL LIMIT 1' };

export const PING: Statement = { name: 'ping', text: 'SELECT 1' };
