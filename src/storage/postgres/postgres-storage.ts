import type pg from 'pg';
import type { OperationQueries } from '../../../generated/queries.js';
import type { Account, AccountApiKey, ApiKeyRecord, NewApiKey, Principal, RevokeResult } from '../api-keys.js';
import { composeStores, type HandWrittenStores } from '../hand-written.js';
import type { QuotaCounter, QuotaPolicy } from '../quotas.js';
import type { ExpectedRowVersions, RowKey, ResourceStore, RowCreation, RowDeletion, RowPage, StoredRow } from '../resources.js';
import type { CoreStorage, StorageOptions } from '../storage.js';
import type { StoredTable } from '../stored-tables.js';
import * as apiKeys from './api-keys.js';
import { POSTGRES_STORES } from './hand-written-stores.js';
import { checkStoredColumns, migratePostgres } from './migrate.js';
import { postgresOperations } from './operations/index.js';
import { createPool } from './pool.js';
import { Queries } from './queries.js';
import { postgresResources } from './resources.js';
import { sharedQuotaCounter } from './quotas.js';
import { PING } from './statements.js';
import { guarded } from './unavailable.js';

/**
 * The scale-out backend: a pg pool per process (pool.ts), named prepared statements (statements.ts),
 * advisory-locked migrations (migrate.ts). Each concern's work is in a module of its own; this class
 * opens the store and puts them together, with the hand-written stores (src/storage/hand-written.ts).
 */
export class PostgresStorage implements CoreStorage {
  readonly kind = 'postgres';
  readonly operations: OperationQueries;
  private readonly queries: Queries;
  private readonly resources: ResourceStore;

  private constructor(
    private readonly pool: pg.Pool,
    options: StorageOptions,
  ) {
    this.queries = new Queries(pool);
    this.operations = postgresOperations(this.queries);
    this.resources = postgresResources(this.queries);
    const onCommit = options.metrics?.observeCommit;
    composeStores(
      this,
      Object.values(POSTGRES_STORES).map((store) =>
        store.open({ queries: this.queries, resources: this, ...(onCommit ? { onCommit } : {}) }),
      ),
    );
  }

  /** Connects to a `postgres:` DATABASE_URL, then creates or migrates the schema. */
  static async open(databaseUrl: string, options: StorageOptions = {}): Promise<PostgresStorage & HandWrittenStores> {
    const pool = createPool(databaseUrl, options);
    try {
      await guarded(async () => {
        await migratePostgres(pool);
        await checkStoredColumns(pool);
      });
    } catch (error) {
      await pool.end();
      throw error;
    }
    return new PostgresStorage(pool, options) as PostgresStorage & HandWrittenStores;
  }

  readonly insertRowIdempotently: ResourceStore['insertRowIdempotently'] = (table, values, idempotency, respond) =>
    this.resources.insertRowIdempotently(table, values, idempotency, respond);

  insertRow<Row extends StoredRow>(table: StoredTable, values: readonly unknown[]): Promise<RowCreation<Row>> {
    return this.resources.insertRow<Row>(table, values);
  }

  getRow<Row extends StoredRow>(table: StoredTable, key: number | string): Promise<Row | undefined> {
    return this.resources.getRow<Row>(table, key) as Promise<Row | undefined>;
  }

  listRows<Row extends StoredRow>(table: StoredTable, page: RowPage): Promise<Row[]> {
    return this.resources.listRows<Row>(table, page) as Promise<Row[]>;
  }

  updateRow<Row extends StoredRow>(table: StoredTable, key: RowKey, patch: readonly unknown[], expected?: ExpectedRowVersions) {
    return this.resources.updateRow<Row>(table, key, patch, expected);
  }

  deleteRow(table: StoredTable, key: number | string, expected?: ExpectedRowVersions): Promise<RowDeletion> {
    return this.resources.deleteRow(table, key, expected);
  }

  ensureAccount(name: string): Promise<Account> {
    return apiKeys.ensureAccount(this.queries, name);
  }

  createApiKey(key: AccountApiKey): Promise<ApiKeyRecord> {
    return apiKeys.createApiKey(this.queries, key);
  }

  findActiveApiKey(hash: string): Promise<Principal | undefined> {
    return apiKeys.findActiveApiKey(this.queries, hash);
  }

  listApiKeys(): Promise<ApiKeyRecord[]> {
    return apiKeys.listApiKeys(this.queries);
  }

  revokeApiKey(id: number): Promise<RevokeResult> {
    return apiKeys.revokeApiKey(this.queries, id);
  }

  hasActiveApiKey(): Promise<boolean> {
    return apiKeys.hasActiveApiKey(this.queries);
  }

  createFirstApiKey(key: NewApiKey): Promise<ApiKeyRecord | undefined> {
    return apiKeys.createFirstApiKey(this.queries, key);
  }

  sharedQuotaCounter(policy: QuotaPolicy): QuotaCounter {
    return sharedQuotaCounter(this.pool, policy);
  }

  async ping(): Promise<void> {
    await this.queries.rows(PING);
  }

  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }
}
