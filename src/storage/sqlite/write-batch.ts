import type Database from 'better-sqlite3';
import type { Account, AccountApiKey, ApiKeyRecord, NewApiKey, RevokeResult } from '../api-keys.js';
import type { IdempotencyRequest, IdempotentOutcome, RecordedResponse } from '../idempotency.js';
import type { StoreWrite } from '../hand-written.js';
import type { ExpectedRowVersions, IdempotentRowOutcome, RowCreation, RowDeletion, RowUpdate, StoredRow } from '../resources.js';
import { apiKeyFromRow, headersToColumn, outcomeOfRecord } from '../rows.js';
import { storedTable } from '../stored-tables.js';
import { resourcesOn } from './resources.js';
import type { WriteStatements } from './statements.js';

/** An Idempotency-Key record to check and write, with its instants as RFC 3339 text (it crosses threads). */
export type IdempotencyRecordRequest = Omit<IdempotencyRequest, 'now' | 'expiresAt'> & { now: string; expiresAt: string };

/** One write, as plain data: it is posted to the writer thread. */
export type WriteOp =
  /** A write of a hand-written store, by the store's name and the write's (src/storage/hand-written.ts). */
  | { kind: 'store'; store: string; write: string; args: unknown }
  | { kind: 'ensureAccount'; name: string }
  | ({ kind: 'createApiKey' } & AccountApiKey)
  | { kind: 'revokeApiKey'; id: number }
  | { kind: 'createFirstApiKey'; key: NewApiKey }
  /** A row of a table of generated/tables.ts, by the table's name (resources.ts). */
  | { kind: 'insertRow'; table: string; values: readonly unknown[] }
  | { kind: 'insertRowIdempotently'; table: string; values: readonly unknown[]; idempotency: IdempotencyRecordRequest }
  | { kind: 'updateRow'; table: string; key: number | string; patch: readonly unknown[]; expected?: ExpectedRowVersions }
  | { kind: 'deleteRow'; table: string; key: number | string; expected?: ExpectedRowVersions };

/** What each kind of write resolves to. */
export interface WriteValues {
  store: unknown;
  ensureAccount: Account;
  createApiKey: ApiKeyRecord;
  revokeApiKey: RevokeResult;
  createFirstApiKey: ApiKeyRecord | undefined;
  insertRow: RowCreation<StoredRow>;
  insertRowIdempotently: IdempotentRowOutcome;
  updateRow: RowUpdate<StoredRow>;
  deleteRow: RowDeletion;
}

/** A write's error as plain data: its class does not survive the trip between threads. */
export interface WriteFailure {
  message: string;
  /** SQLite's code (SQLITE_BUSY, SQLITE_FULL, ...) when it has one. */
  code?: string;
  /** Worth a retry: the database was busy (another process held the write lock), or the writer was lost. */
  unavailable?: boolean;
}

export type WriteResult = { ok: true; value: unknown } | { ok: false; error: WriteFailure };

/** A row created for a keyed request, whose response must be rendered before the batch commits. */
export interface ToRender {
  index: number;
  created: StoredRow;
}

/** A write under an Idempotency-Key. */
type KeyedOp = Extract<WriteOp, { kind: 'insertRowIdempotently' }>;

/** Each write's result, and how long the batch's transaction took, commit included. */
export interface BatchOutcome {
  results: WriteResult[];
  seconds: number;
}

/** Renders the responses of keyed creates (on the main thread: it knows HTTP, the writer does not). */
export type Renderer = (created: ToRender[]) => Promise<RecordedResponse[]>;

export function failure(error: unknown): WriteFailure {
  const { message, code } = error as { message?: unknown; code?: unknown };
  return {
    message: typeof message === 'string' ? message : String(error),
    ...(typeof code === 'string' ? { code, unavailable: code.startsWith('SQLITE_BUSY') } : {}),
  };
}

function apply(db: Database.Database, s: WriteStatements, op: Exclude<WriteOp, KeyedOp>): unknown {
  switch (op.kind) {
    case 'store':
      return storeWrite(s, op).run(op.args as never);
    case 'ensureAccount': {
      s.insertAccount.run(op.name);
      const row = s.getAccount.get(op.name)!;
      return { id: row.id, name: row.name, createdAt: row.created_at };
    }
    case 'createApiKey': {
      const { id } = s.insertKey.get(op.accountId, op.hash, op.displayPrefix)!;
      return apiKeyFromRow(s.getKey.get(id)!);
    }
    case 'revokeApiKey':
      if (s.revokeKey.run(op.id).changes === 1) return 'revoked';
      return s.keyExists.get(op.id) ? 'already_revoked' : 'not_found';
    case 'createFirstApiKey': {
      if (s.anyActiveKey.get() !== undefined) return undefined;
      s.insertAccount.run(op.key.accountName);
      const account = s.getAccount.get(op.key.accountName)!;
      const { id } = s.insertKey.get(account.id, op.key.hash, op.key.displayPrefix)!;
      return apiKeyFromRow(s.getKey.get(id)!);
    }
    case 'insertRow':
      return resourcesOn(db).insert(storedTable(op.table), op.values);
    case 'updateRow':
      return resourcesOn(db).update(storedTable(op.table), op.key, op.patch, op.expected);
    case 'deleteRow':
      return resourcesOn(db).delete(storedTable(op.table), op.key, op.expected);
  }
}

/**
 * Runs a batch of writes as one IMMEDIATE transaction: one commit, so one fsync, for all of them
 * (group commit). Each write runs in a savepoint of its own, so one that fails fails alone. A keyed
 * create checks its record, creates the row, and, once every row of the batch exists, records the
 * response `render` made for it, all before the commit: the row and its record commit together or
 * not at all. A key met twice in one batch is in progress the second time. Anything that fails the
 * transaction itself (the commit, the records) fails every write of the batch: none is acknowledged.
 */
export async function executeBatch(
  db: Database.Database,
  s: WriteStatements,
  ops: readonly WriteOp[],
  render: Renderer,
): Promise<BatchOutcome> {
  const started = performance.now();
  const results = await runTransaction(db, s, ops, render);
  return { results, seconds: (performance.now() - started) / 1000 };
}

/**
 * Writes made by one statement (then at most reads): SQLite undoes a failed statement by itself and
 * the transaction goes on, so they need no savepoint of their own, two statements fewer each.
 */
const SINGLE_STATEMENT: ReadonlySet<WriteOp['kind']> = new Set(['insertRow', 'updateRow', 'deleteRow']);

function storeWrite(s: WriteStatements, op: Extract<WriteOp, { kind: 'store' }>): StoreWrite {
  const write = s.stores[op.store]?.[op.write];
  if (!write) throw new Error(`no write ${op.write} of store ${op.store}`);
  return write;
}

/** Whether a write runs in a savepoint of its own (see SINGLE_STATEMENT); a store's write says itself. */
function needsSavepoint(s: WriteStatements, op: WriteOp): boolean {
  return op.kind === 'store' ? storeWrite(s, op).singleStatement !== true : !SINGLE_STATEMENT.has(op.kind);
}

async function runTransaction(
  db: Database.Database,
  s: WriteStatements,
  ops: readonly WriteOp[],
  render: Renderer,
): Promise<WriteResult[]> {
  const results: WriteResult[] = [];
  const keyed: Array<ToRender & { idempotency: IdempotencyRecordRequest }> = [];
  const keysInBatch = new Set<string>();
  try {
    db.exec('BEGIN IMMEDIATE');
  } catch (error) {
    return ops.map(() => ({ ok: false, error: failure(error) }));
  }
  try {
    ops.forEach((op, index) => {
      const savepoint = needsSavepoint(s, op);
      if (savepoint) s.savepoint.run();
      try {
        if (op.kind === 'insertRowIdempotently') {
          const { accountId, key, fingerprint, now } = op.idempotency;
          const inBatch = `${accountId}:${key}`;
          const record = keysInBatch.has(inBatch) ? undefined : s.getIdempotencyRecord.get(accountId, key, now);
          if (keysInBatch.has(inBatch)) {
            results[index] = { ok: true, value: { kind: 'in_progress' } satisfies IdempotentOutcome };
          } else if (record) {
            results[index] = { ok: true, value: outcomeOfRecord(record, fingerprint) };
          } else {
            s.deleteExpiredIdempotencyRecords.run(now);
            const created = resourcesOn(db).insert(storedTable(op.table), op.values);
            if (created.kind === 'missing_reference' || created.kind === 'duplicate_key') {
              results[index] = { ok: true, value: created satisfies IdempotentRowOutcome };
            } else {
              keysInBatch.add(inBatch);
              keyed.push({ index, created: created.row, idempotency: op.idempotency });
            }
          }
        } else {
          results[index] = { ok: true, value: apply(db, s, op) };
        }
        if (savepoint) s.release.run();
      } catch (error) {
        // An error that ended the transaction itself (a full disk, an I/O error) fails the batch.
        if (!db.inTransaction) throw error;
        if (savepoint) {
          s.rollbackTo.run();
          s.release.run();
        }
        results[index] = { ok: false, error: failure(error) };
      }
    });
    if (keyed.length > 0) {
      const responses = await render(keyed.map(({ index, created }) => ({ index, created })));
      keyed.forEach(({ index, idempotency: { accountId, key, fingerprint, now, expiresAt } }, i) => {
        const response = responses[i]!;
        const body = Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength);
        s.putIdempotencyRecord.run(accountId, key, fingerprint, response.status, headersToColumn(response), body, now, expiresAt);
        results[index] = { ok: true, value: { kind: 'created', response } satisfies IdempotentOutcome };
      });
    }
    db.exec('COMMIT');
    return results;
  } catch (error) {
    if (db.inTransaction) db.exec('ROLLBACK');
    return ops.map(() => ({ ok: false, error: failure(error) }));
  }
}
