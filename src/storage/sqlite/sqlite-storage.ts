import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { OperationQueries } from '../../../generated/queries.js';
import type { Account, AccountApiKey, ApiKeyRecord, NewApiKey, Principal, RevokeResult } from '../api-keys.js';
import { composeStores, type HandWrittenStores } from '../hand-written.js';
import type { IdempotencyRequest, RecordedResponse } from '../idempotency.js';
import type { QuotaCounter } from '../quotas.js';
import { apiKeyFromRow, principalFromRow } from '../rows.js';
import type {
  ExpectedRowVersions,
  IdempotentRowOutcome,
  MaybePromise,
  RowKey,
  RowCreation,
  RowDeletion,
  RowPage,
  RowUpdate,
  StoredRow,
} from '../resources.js';
import type { CoreStorage, StorageOptions } from '../storage.js';
import type { StoredTable } from '../stored-tables.js';
import { SQLITE_STORES } from './hand-written-stores.js';
import { checkStoredColumns, migrateSqlite } from './migrate.js';
import { sqliteOperations } from './operations/index.js';
import { resourcesOn, type SqliteResources } from './resources.js';
import { configureConnection, prepareReads } from './statements.js';
import type { IdempotencyRecordRequest } from './write-batch.js';
import { SqliteWriter } from './writer.js';

/** Accepts `file:PATH` (relative to the working directory) or `file::memory:`. */
export function sqlitePathFromUrl(databaseUrl: string): string {
  if (!databaseUrl.startsWith('file:')) throw new Error(`not a SQLite DATABASE_URL (expected file:PATH): ${databaseUrl}`);
  const path = decodeURIComponent(databaseUrl.slice('file:'.length).replace(/^\/\/(?=\/)/, ''));
  if (path === '') throw new Error('DATABASE_URL file: needs a path');
  return path;
}

/** An Idempotency-Key's request as the writer thread takes it. */
function recordRequest({ accountId, key, fingerprint, now, expiresAt }: IdempotencyRequest): IdempotencyRecordRequest {
  return { accountId, key, fingerprint, now: now.toISOString(), expiresAt: expiresAt.toISOString() };
}

/**
 * The embedded backend: one SQLite file (better-sqlite3) in WAL mode. Reads run on this thread's
 * connection, synchronously (better-sqlite3 is): the row reads and the key lookup answer at once,
 * the rest return promises to keep the interfaces both backends implement. The hand-written stores
 * (src/storage/hand-written.ts) read on the same connection and write through the same writer. Writes go to a writer
 * (writer.ts): batched, one transaction and one fsync per batch, in a thread of their own so that a
 * commit never stalls the reads.
 */
export class SqliteStorage implements CoreStorage {
  readonly kind = 'sqlite';
  readonly operations: OperationQueries;
  private readonly resources: SqliteResources;

  private constructor(
    private readonly db: Database.Database,
    private readonly reads: ReturnType<typeof prepareReads>,
    private readonly writer: SqliteWriter,
  ) {
    // Reads, on this thread's connection.
    this.operations = sqliteOperations(db);
    this.resources = resourcesOn(db);
  }

  /** Opens the file of a `file:` DATABASE_URL (creating it and its folder), then creates or migrates the schema. */
  static async open(databaseUrl: string, options: StorageOptions = {}): Promise<SqliteStorage & HandWrittenStores> {
    const path = sqlitePathFromUrl(databaseUrl);
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path);
    try {
      configureConnection(db);
      await migrateSqlite(db);
      checkStoredColumns(db);
      const storage = new SqliteStorage(db, prepareReads(db), SqliteWriter.start(path, db, options.metrics?.observeCommit));
      return composeStores(
        storage,
        Object.entries(SQLITE_STORES).map(([name, store]) =>
          store.open({ db, resources: storage, write: (write, args) => storage.writer.write({ kind: 'store', store: name, write, args }) }),
        ),
      );
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** Through the writer, like every write: its foreign keys are checked in the batch's transaction. */
  insertRow<Row extends StoredRow>(table: StoredTable, values: readonly unknown[]): Promise<RowCreation<Row>> {
    return this.writer.write({ kind: 'insertRow', table: table.table, values }) as Promise<RowCreation<Row>>;
  }

  insertRowIdempotently<Row extends StoredRow>(
    table: StoredTable,
    values: readonly unknown[],
    idempotency: IdempotencyRequest,
    respond: (row: Row) => RecordedResponse,
  ): Promise<IdempotentRowOutcome> {
    return this.writer.write(
      { kind: 'insertRowIdempotently', table: table.table, values, idempotency: recordRequest(idempotency) },
      respond,
    );
  }

  getRow<Row extends StoredRow>(table: StoredTable, key: number | string): MaybePromise<Row | undefined> {
    return this.resources.get(table, key) as Row | undefined;
  }

  listRows<Row extends StoredRow>(table: StoredTable, page: RowPage): MaybePromise<Row[]> {
    return this.resources.list(table, page) as Row[];
  }

  updateRow<Row extends StoredRow>(table: StoredTable, key: RowKey, patch: readonly unknown[], expected?: ExpectedRowVersions) {
    return this.writer.write({ kind: 'updateRow', table: table.table, key, patch, expected }) as Promise<RowUpdate<Row>>;
  }

  deleteRow(table: StoredTable, key: number | string, expected?: ExpectedRowVersions): Promise<RowDeletion> {
    return this.writer.write({ kind: 'deleteRow', table: table.table, key, expected });
  }

  ensureAccount(name: string): Promise<Account> {
    return this.writer.write({ kind: 'ensureAccount', name });
  }

  createApiKey(key: AccountApiKey): Promise<ApiKeyRecord> {
    return this.writer.write({ kind: 'createApiKey', ...key });
  }

  findActiveApiKey(hash: string): Principal | undefined {
    const row = this.reads.findActiveKey.get(hash);
    return row && principalFromRow(row);
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    return this.reads.listKeys.all().map(apiKeyFromRow);
  }

  revokeApiKey(id: number): Promise<RevokeResult> {
    return this.writer.write({ kind: 'revokeApiKey', id });
  }

  async hasActiveApiKey(): Promise<boolean> {
    return this.reads.anyActiveKey.get() !== undefined;
  }

  /** Checked and made in the writer's transaction (IMMEDIATE: the write lock is taken before the check). */
  createFirstApiKey(key: NewApiKey): Promise<ApiKeyRecord | undefined> {
    return this.writer.write({ kind: 'createFirstApiKey', key });
  }

  /** None: SQLite serves one host, where each process counts its quotas in its own memory. */
  sharedQuotaCounter(): QuotaCounter | undefined {
    return undefined;
  }

  async ping(): Promise<void> {
    this.reads.ping.get();
  }

  /** Finishes the writes under way, then closes both connections. */
  async close(): Promise<void> {
    await this.writer.close();
    if (this.db.open) this.db.close();
  }
}
