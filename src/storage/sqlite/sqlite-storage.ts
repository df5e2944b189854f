import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { Migration } from '../migration.js';
import {
  apiKeyFromRow,
  EXPIRED_RECORDS_PER_WRITE,
  headersToColumn,
  outcomeOfRecord,
  petFromRow,
  PET_COLUMNS,
  principalFromRow,
  type ApiKeyRow,
  type IdempotencyRow,
  type PetRow,
  type PrincipalRow,
} from '../rows.js';
import {
  StorageUnavailableError,
  type Account,
  type ApiKeyRecord,
  type NewApiKey,
  type IdempotencyRequest,
  type IdempotentOutcome,
  type NewPet,
  type Pet,
  type PetPageQuery,
  type Principal,
  type RecordedResponse,
  type RevokeResult,
  type Storage,
  type StorageMetrics,
  type StorageOptions,
} from '../storage.js';
import { sqliteMigrations } from './migrations.js';

/** Pet statements return rows as arrays (better-sqlite3's raw mode; see PetRow). */
function rawRows<P extends unknown[]>(statement: Database.Statement<P>): Database.Statement<P, PetRow> {
  return statement.raw() as unknown as Database.Statement<P, PetRow>;
}

/**
 * Applies pending migrations, each in an IMMEDIATE transaction: it takes the write lock first, so two
 * processes migrating one file cannot interleave, and the re-check inside the lock skips a migration
 * the other process just applied.
 */
export function migrateSqlite(db: Database.Database, migrations: readonly Migration[] = sqliteMigrations): Promise<number[]> {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const record = db.prepare(
    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
  );
  const isApplied = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?');
  const newlyApplied: number[] = [];
  for (const migration of migrations) {
    db.transaction(() => {
      if (isApplied.get(migration.version)) return;
      db.exec(migration.sql);
      record.run(migration.version, migration.name);
      newlyApplied.push(migration.version);
    }).immediate();
  }
  return Promise.resolve(newlyApplied);
}

/** Accepts `file:PATH` (relative to the working directory) or `file::memory:`. */
export function sqlitePathFromUrl(databaseUrl: string): string {
  if (!databaseUrl.startsWith('file:')) throw new Error(`not a SQLite DATABASE_URL (expected file:PATH): ${databaseUrl}`);
  const path = decodeURIComponent(databaseUrl.slice('file:'.length).replace(/^\/\/(?=\/)/, ''));
  if (path === '') throw new Error('DATABASE_URL file: needs a path');
  return path;
}

function prepareStatements(db: Database.Database) {
  const keyColumns = `k.id, k.account_id, a.name AS account_name, k.display_prefix, k.created_at, k.revoked_at`;
  return {
    insertPet: rawRows(
      db.prepare<[string, number, string | null]>(`INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?) RETURNING ${PET_COLUMNS}`),
    ),
    getPet: rawRows(db.prepare<[number]>(`SELECT ${PET_COLUMNS} FROM pets WHERE id = ?`)),
    listPets: rawRows(db.prepare<[number, number]>(`SELECT ${PET_COLUMNS} FROM pets WHERE id > ? ORDER BY id LIMIT ?`)),
    listPetsByStatus: rawRows(
      db.prepare<[string, number, number]>(`SELECT ${PET_COLUMNS} FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?`),
    ),
    insertAccount: db.prepare<[string]>('INSERT INTO accounts (name) VALUES (?) ON CONFLICT (name) DO NOTHING'),
    getAccount: db.prepare<[string], { id: number; name: string; created_at: string }>(
      'SELECT id, name, created_at FROM accounts WHERE name = ?',
    ),
    insertKey: db.prepare<[number, string, string], { id: number }>(
      'INSERT INTO api_keys (account_id, key_hash, display_prefix) VALUES (?, ?, ?) RETURNING id',
    ),
    getKey: db.prepare<[number], ApiKeyRow>(`SELECT ${keyColumns} FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = ?`),
    findActiveKey: db.prepare<[string], PrincipalRow>(
      `SELECT k.id AS key_id, k.account_id, a.name AS account_name
         FROM api_keys k JOIN accounts a ON a.id = k.account_id
        WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
    ),
    listKeys: db.prepare<[], ApiKeyRow>(`SELECT ${keyColumns} FROM api_keys k JOIN accounts a ON a.id = k.account_id ORDER BY k.id`),
    revokeKey: db.prepare<[number]>(
      "UPDATE api_keys SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND revoked_at IS NULL",
    ),
    keyExists: db.prepare<[number]>('SELECT 1 FROM api_keys WHERE id = ?'),
    anyActiveKey: db.prepare<[]>('SELECT 1 FROM api_keys WHERE revoked_at IS NULL LIMIT 1'),
    ping: db.prepare<[]>('SELECT 1'),
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
  };
}

/** Timestamps of idempotency records: RFC 3339 in UTC, whose text order is time order. */
const iso = (date: Date) => date.toISOString();

/** Another process held the write lock for longer than busy_timeout: retryable, so 503. */
function busyAsUnavailable<T>(work: () => T): T {
  try {
    return work();
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) throw new StorageUnavailableError({ cause: error });
    throw error;
  }
}

/**
 * The embedded backend: one SQLite file (better-sqlite3), in WAL mode. better-sqlite3 answers
 * synchronously; the methods are async only to keep the one Storage interface.
 */
export class SqliteStorage implements Storage {
  readonly kind = 'sqlite';

  /**
   * Check, create and record as one IMMEDIATE transaction: it takes the write lock before reading the
   * key's record, so a process sharing the file that sends the same key waits for this commit and
   * then replays it. Within a process nothing else runs meanwhile (better-sqlite3 is synchronous), so
   * a request with a key is never seen in flight here.
   */
  private readonly createPetOnce: Database.Transaction<
    (pet: NewPet, idempotency: IdempotencyRequest, respond: (pet: Pet) => RecordedResponse) => IdempotentOutcome
  >;

  private constructor(
    private readonly db: Database.Database,
    private readonly statements: ReturnType<typeof prepareStatements>,
    private readonly metrics: StorageMetrics | undefined,
  ) {
    this.createPetOnce = db.transaction((pet: NewPet, idempotency: IdempotencyRequest, respond: (pet: Pet) => RecordedResponse) => {
      const { accountId, key, fingerprint, now, expiresAt } = idempotency;
      const record = statements.getIdempotencyRecord.get(accountId, key, iso(now));
      if (record) return outcomeOfRecord(record, fingerprint);
      const created = petFromRow(statements.insertPet.get(pet.name, pet.categoryId, pet.status ?? null)!);
      const response = respond(created);
      statements.deleteExpiredIdempotencyRecords.run(iso(now));
      statements.putIdempotencyRecord.run(
        accountId,
        key,
        fingerprint,
        response.status,
        headersToColumn(response),
        Buffer.from(response.body.buffer, response.body.byteOffset, response.body.byteLength),
        iso(now),
        iso(expiresAt),
      );
      return { kind: 'created', response };
    });
  }

  /** Opens the file of a `file:` DATABASE_URL (creating it and its folder), then creates or migrates the schema. */
  static async open(databaseUrl: string, options: StorageOptions = {}): Promise<SqliteStorage> {
    const path = sqlitePathFromUrl(databaseUrl);
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path);
    try {
      db.pragma('journal_mode = WAL');
      // FULL: a 201 is only sent for a pet whose commit reached the disk, even across power loss.
      db.pragma('synchronous = FULL');
      db.pragma('foreign_keys = ON');
      // Several processes (server, keys CLI) may share the file; wait for a lock instead of failing.
      db.pragma('busy_timeout = 5000');
      await migrateSqlite(db);
      return new SqliteStorage(db, prepareStatements(db), options.metrics);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /**
   * A write transaction (one statement in autocommit, or a transaction), timed to its commit for the
   * commit-latency metric: with synchronous=FULL that is mostly the fsync.
   */
  private write<T>(work: () => T): T {
    if (!this.metrics) return work();
    const started = performance.now();
    const result = work();
    this.metrics.observeCommit((performance.now() - started) / 1000);
    return result;
  }

  async createPet(pet: NewPet): Promise<Pet> {
    return busyAsUnavailable(() =>
      this.write(() => petFromRow(this.statements.insertPet.get(pet.name, pet.categoryId, pet.status ?? null)!)),
    );
  }

  async createPetIdempotently(
    pet: NewPet,
    idempotency: IdempotencyRequest,
    respond: (pet: Pet) => RecordedResponse,
  ): Promise<IdempotentOutcome> {
    return busyAsUnavailable(() => this.write(() => this.createPetOnce.immediate(pet, idempotency, respond)));
  }

  async getPet(id: number): Promise<Pet | undefined> {
    const row = this.statements.getPet.get(id);
    return row && petFromRow(row);
  }

  async listPets({ limit, status, afterId = 0 }: PetPageQuery): Promise<Pet[]> {
    const rows =
      status === undefined ? this.statements.listPets.all(afterId, limit) : this.statements.listPetsByStatus.all(status, afterId, limit);
    return rows.map(petFromRow);
  }

  async ensureAccount(name: string): Promise<Account> {
    this.write(() => this.statements.insertAccount.run(name));
    const row = this.statements.getAccount.get(name)!;
    return { id: row.id, name: row.name, createdAt: row.created_at };
  }

  async createApiKey({
    accountId,
    hash,
    displayPrefix,
  }: {
    accountId: number;
    hash: string;
    displayPrefix: string;
  }): Promise<ApiKeyRecord> {
    const { id } = this.write(() => this.statements.insertKey.get(accountId, hash, displayPrefix)!);
    return apiKeyFromRow(this.statements.getKey.get(id)!);
  }

  async findActiveApiKey(hash: string): Promise<Principal | undefined> {
    const row = this.statements.findActiveKey.get(hash);
    return row && principalFromRow(row);
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    return this.statements.listKeys.all().map(apiKeyFromRow);
  }

  async revokeApiKey(id: number): Promise<RevokeResult> {
    if (this.write(() => this.statements.revokeKey.run(id)).changes === 1) return 'revoked';
    return this.statements.keyExists.get(id) ? 'already_revoked' : 'not_found';
  }

  async hasActiveApiKey(): Promise<boolean> {
    return this.statements.anyActiveKey.get() !== undefined;
  }

  async createFirstApiKey({ accountName, hash, displayPrefix }: NewApiKey): Promise<ApiKeyRecord | undefined> {
    // IMMEDIATE takes the write lock before the check, so another process cannot pass it too.
    const firstKey = this.db.transaction(() => {
      if (this.statements.anyActiveKey.get() !== undefined) return undefined;
      this.statements.insertAccount.run(accountName);
      const account = this.statements.getAccount.get(accountName)!;
      const { id } = this.statements.insertKey.get(account.id, hash, displayPrefix)!;
      return apiKeyFromRow(this.statements.getKey.get(id)!);
    });
    return this.write(() => firstKey.immediate());
  }

  async ping(): Promise<void> {
    this.statements.ping.get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
