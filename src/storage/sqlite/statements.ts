import type Database from 'better-sqlite3';
import type { StoreWrite } from '../hand-written.js';
import { EXPIRED_RECORDS_PER_WRITE, type ApiKeyRow, type IdempotencyRow, type PrincipalRow } from '../rows.js';
import { SQLITE_STORES } from './hand-written-stores.js';

const SELECT_KEYS = `SELECT k.id, k.account_id, a.name AS account_name, k.display_prefix, k.created_at, k.revoked_at
  FROM api_keys k JOIN accounts a ON a.id = k.account_id`;
const ANY_ACTIVE_KEY = 'SELECT 1 FROM api_keys WHERE revoked_at IS NULL LIMIT 1';

/** What the request path reads, on the main thread's connection. */
export function prepareReads(db: Database.Database) {
  return {
    findActiveKey: db.prepare<[string], PrincipalRow>(
      `SELECT k.id AS key_id, k.account_id, a.name AS account_name
         FROM api_keys k JOIN accounts a ON a.id = k.account_id
        WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    ),
    listKeys: db.prepare<[], ApiKeyRow>(`${SELECT_KEYS} ORDER BY k.id`),
    anyActiveKey: db.prepare<[]>(ANY_ACTIVE_KEY),
    ping: db.prepare<[]>('SELECT 1'),
  };
}

/** Every write, on the writer's connection (see writer.ts). */
export function prepareWrites(db: Database.Database) {
  return {
    savepoint: db.prepare('SAVEPOINT write'),
    release: db.prepare('RELEASE write'),
    rollbackTo: db.prepare('ROLLBACK TO write'),
    /** Each hand-written store's writes, by store and name (src/storage/hand-written.ts). */
    stores: Object.fromEntries(Object.entries(SQLITE_STORES).map(([name, store]) => [name, store.writes(db)])) as Readonly<
      Record<string, Readonly<Record<string, StoreWrite>>>
    >,
    getIdempotencyRecord: db.prepare<[number, string, string], IdempotencyRow>(
      'SELECT fingerprint, status, headers, body FROM idempotency_keys WHERE account_id = ? AND key = ? AND expires_at > ?',
    ),
    // Replaces the key's expired record, if there is one (checked in the same transaction).
    putIdempotencyRecord: db.prepare<[number, string, string, number, string, Buffer, string, string]>(
      `INSERT OR REPLACE INTO idempotency_keys (account_id, key, fingerprint, status, headers, body, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    deleteExpiredIdempotencyRecords: db.prepare<[string]>(
      `DELETE FROM idempotency_keys WHERE (account_id, key) IN
         (SELECT account_id, key FROM idempotency_keys WHERE expires_at <= ? LIMIT ${EXPIRED_RECORDS_PER_WRITE})`,
    ),
    insertAccount: db.prepare<[string]>('INSERT INTO accounts (name) VALUES (?) ON CONFLICT (name) DO NOTHING'),
    getAccount: db.prepare<[string], { id: number; name: string; created_at: string }>(
      'SELECT id, name, created_at FROM accounts WHERE name = ?',
    ),
    insertKey: db.prepare<[number, string, string], { id: number }>(
      'INSERT INTO api_keys (account_id, key_hash, display_prefix) VALUES (?, ?, ?) RETURNING id',
    ),
    getKey: db.prepare<[number], ApiKeyRow>(`${SELECT_KEYS} WHERE k.id = ?`),
    revokeKey: db.prepare<[number]>(
      "UPDATE api_keys SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND revoked_at IS NULL",
    ),
    keyExists: db.prepare<[number]>('SELECT 1 FROM api_keys WHERE id = ?'),
    anyActiveKey: db.prepare<[]>(ANY_ACTIVE_KEY),
  };
}

export type WriteStatements = ReturnType<typeof prepareWrites>;

/**
 * The connection settings of every connection to the file: WAL, so that reads on one connection go
 * on while another writes; FULL, so that a commit has reached the disk when it returns, even across
 * power loss; and a wait for a lock held by another connection or process, instead of failing.
 */
export function configureConnection(db: Database.Database): void {
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
}
