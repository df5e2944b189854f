import type pg from 'pg';
import type { OperationQueries } from '../../../generated/queries.js';
import type { Account, AccountApiKey, ApiKeyRecord, NewApiKey, Principal, RevokeResult } from '../api-keys.js';
import type { IdempotencyRequest, IdempotentOutcome, RecordedResponse } from '../idempotency.js';
import { petFromRow, versionedPetFromRow, type PetRow, type VersionedPetRow } from '../pet-table.js';
import type { ExpectedVersions, NewPet, Pet, PetDeletion, PetPageQuery, PetPatch, PetUpdate, VersionedPet } from '../pets.js';
import type { QuotaCounter, QuotaPolicy } from '../quotas.js';
import type { ExpectedRowVersions, RowKey, ResourceStore, RowCreation, RowDeletion, RowPage, StoredRow } from '../resources.js';
import type { Storage, StorageOptions } from '../storage.js';
import type { StoredTable } from '../stored-tables.js';
import * as apiKeys from './api-keys.js';
import { createPetIdempotently } from './idempotency.js';
import { checkStoredColumns, migratePostgres } from './migrate.js';
import { postgresOperations } from './operations/index.js';
import { PetInserts } from './pet-inserts.js';
import * as petUpdates from './pet-updates.js';
import { createPool } from './pool.js';
import { Queries } from './queries.js';
import { postgresResources } from './resources.js';
import { sharedQuotaCounter } from './quotas.js';
import { GET_PET, LIST_PETS, LIST_PETS_BY_STATUS, PING } from './statements.js';
import { guarded } from './unavailable.js';

/**
 * The scale-out backend: a pg pool per process (pool.ts), named prepared statements (statements.ts),
 * advisory-locked migrations (migrate.ts). Each concern's work is in a module of its own; this class
 * opens the store and puts them together.
 */
export class PostgresStorage implements Storage {
  readonly kind = 'postgres';
  readonly operations: OperationQueries;
  private readonly queries: Queries;
  private readonly petInserts: PetInserts;
  private readonly resources: ResourceStore;

  private constructor(
    private readonly pool: pg.Pool,
    options: StorageOptions,
  ) {
    this.queries = new Queries(pool);
    this.operations = postgresOperations(this.queries);
    this.petInserts = new PetInserts(this.queries, options.metrics?.observeCommit);
    this.resources = postgresResources(this.queries);
  }

  /** Connects to a `postgres:` DATABASE_URL, then creates or migrates the schema. */
  static async open(databaseUrl: string, options: StorageOptions = {}): Promise<PostgresStorage> {
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
    return new PostgresStorage(pool, options);
  }

  createPet(pet: NewPet): Promise<Pet> {
    return this.petInserts.submit(pet);
  }

  async getPet(id: number): Promise<VersionedPet | undefined> {
    const [row] = await this.queries.arrays<VersionedPetRow>(GET_PET, [id]);
    return row && versionedPetFromRow(row);
  }

  updatePet(id: number, patch: PetPatch, expected?: ExpectedVersions): Promise<PetUpdate> {
    return petUpdates.updatePet(this.queries, id, patch, expected);
  }

  deletePet(id: number, expected?: ExpectedVersions): Promise<PetDeletion> {
    return petUpdates.deletePet(this.queries, id, expected);
  }

  async listPets({ limit, status, afterId = 0 }: PetPageQuery): Promise<Pet[]> {
    const rows =
      status === undefined
        ? await this.queries.arrays<PetRow>(LIST_PETS, [afterId, limit])
        : await this.queries.arrays<PetRow>(LIST_PETS_BY_STATUS, [status, afterId, limit]);
    return rows.map(petFromRow);
  }

  createPetIdempotently(pet: NewPet, idempotency: IdempotencyRequest, respond: (pet: Pet) => RecordedResponse): Promise<IdempotentOutcome> {
    return createPetIdempotently(this.queries, pet, idempotency, respond);
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
