import type { ColumnType } from '../../../generated/tables.js';
import { EXPIRED_RECORDS_PER_WRITE } from '../rows.js';
import type { Statement } from './queries.js';

// Every statement the backend runs on its data (migrate.ts has the schema's own), each written once.

/** How PostgreSQL stores each JSON type a column holds (see migrations.ts). */
export const POSTGRES_TYPES: Record<ColumnType, string> = {
  string: 'text',
  integer: 'bigint',
  number: 'double precision',
  boolean: 'boolean',
  json: 'jsonb',
};

/** Timestamps as the rows of both backends carry them: RFC 3339 in UTC, to the millisecond. */
const utc = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The unexpired record of account $1's key $2 at $3. */
export const UNEXPIRED_RECORD = `
    SELECT fingerprint, status, headers, body FROM idempotency_keys
     WHERE account_id = $1 AND key = $2 AND expires_at > $3`;

/** The key's unexpired record, if it has one. */
export const IDEMPOTENCY_RECORD: Statement = { name: 'get-idempotency-record', text: UNEXPIRED_RECORD };

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
