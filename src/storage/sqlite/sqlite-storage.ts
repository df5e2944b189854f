import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  StorageUnavailableError,
  type Account,
  type ApiKeyRecord,
  type NewPet,
  type Pet,
  type PetPageQuery,
  type PetStatus,
  type Principal,
  type RevokeResult,
  type Storage,
} from '../storage.js';
import type { Migration } from '../migration.js';
import { sqliteMigrations } from './migrations.js';

/** id, name, category_id, status: pet rows are read as arrays (see the statements). */
type PetRow = [id: number, name: string, categoryId: number, status: PetStatus | null];

interface ApiKeyRow {
  id: number;
  account_id: number;
  account_name: string;
  display_prefix: string;
  created_at: string;
  revoked_at: string | null;
}

function toPet([id, name, categoryId, status]: PetRow): Pet {
  // An omitted status stays absent rather than becoming null.
  return status === null ? { id, name, categoryId } : { id, name, categoryId, status };
}

/**
 * Pet statements return rows as arrays (better-sqlite3's raw mode): building a keyed object per
 * row is most of the cost of reading a page, ~0.3 us of ~1 us per row, and the row becomes a Pet
 * right after anyway.
 */
function rawRows<P extends unknown[]>(statement: Database.Statement<P>): Database.Statement<P, PetRow> {
  return statement.raw() as unknown as Database.Statement<P, PetRow>;
}

function toApiKey(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    accountName: row.account_name,
    displayPrefix: row.display_prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export function migrate(db: Database.Database, migrations: readonly Migration[] = sqliteMigrations): number[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)');
  const applied = new Set(db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[]);
  const record = db.prepare(
    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))",
  );
  const newlyApplied: number[] = [];
  for (const migration of migrations) {
    if (applied.has(migration.version)) continue;
    // IMMEDIATE takes the write lock first, so two processes migrating one file cannot interleave;
    // the re-check inside the lock skips a migration the other process just applied.
    db.transaction(() => {
      const done = db.prepare('SELECT 1 FROM schema_migrations WHERE version = ?').get(migration.version);
      if (done) return;
      db.exec(migration.sql);
      record.run(migration.version, migration.name);
      newlyApplied.push(migration.version);
    }).immediate();
  }
  return newlyApplied;
}

/** Accepts `file:PATH` (relative to the working directory) or `file::memory:`. */
export function sqlitePathFromUrl(databaseUrl: string): string {
  if (!databaseUrl.startsWith('file:')) throw new Error(`not a SQLite DATABASE_URL (expected file:PATH): ${databaseUrl}`);
  const path = decodeURIComponent(databaseUrl.slice('file:'.length).replace(/^\/\/(?=\/)/, ''));
  if (path === '') throw new Error('DATABASE_URL file: needs a path');
  return path;
}

export class SqliteStorage implements Storage {
  readonly kind = 'sqlite';
  private readonly db: Database.Database;
  private readonly statements;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    // FULL: a 201 is only sent for a pet whose commit reached the disk, even across power loss.
    this.db.pragma('synchronous = FULL');
    this.db.pragma('foreign_keys = ON');
    // Several processes (server, keys CLI) may share the file; wait for a lock instead of failing.
    this.db.pragma('busy_timeout = 5000');
    migrate(this.db);

    const petColumns = 'id, name, category_id, status';
    const keyColumns = `k.id, k.account_id, a.name AS account_name, k.display_prefix, k.created_at, k.revoked_at`;
    this.statements = {
      insertPet: rawRows(
        this.db.prepare<[string, number, string | null]>(
          `INSERT INTO pets (name, category_id, status) VALUES (?, ?, ?) RETURNING ${petColumns}`,
        ),
      ),
      getPet: rawRows(this.db.prepare<[number]>(`SELECT ${petColumns} FROM pets WHERE id = ?`)),
      listPets: rawRows(this.db.prepare<[number, number]>(`SELECT ${petColumns} FROM pets WHERE id > ? ORDER BY id LIMIT ?`)),
      listPetsByStatus: rawRows(
        this.db.prepare<[string, number, number]>(`SELECT ${petColumns} FROM pets WHERE status = ? AND id > ? ORDER BY id LIMIT ?`),
      ),
      insertAccount: this.db.prepare<[string]>('INSERT INTO accounts (name) VALUES (?) ON CONFLICT (name) DO NOTHING'),
      getAccount: this.db.prepare<[string], { id: number; name: string; created_at: string }>(
        'SELECT id, name, created_at FROM accounts WHERE name = ?',
      ),
      insertKey: this.db.prepare<[number, string, string], { id: number }>(
        'INSERT INTO api_keys (account_id, key_hash, display_prefix) VALUES (?, ?, ?) RETURNING id',
      ),
      getKey: this.db.prepare<[number], ApiKeyRow>(
        `SELECT ${keyColumns} FROM api_keys k JOIN accounts a ON a.id = k.account_id WHERE k.id = ?`,
      ),
      findActiveKey: this.db.prepare<[string], { key_id: number; account_id: number; account_name: string }>(
        `SELECT k.id AS key_id, k.account_id, a.name AS account_name
           FROM api_keys k JOIN accounts a ON a.id = k.account_id
          WHERE k.key_hash = ? AND k.revoked_at IS NULL`,
      ),
      listKeys: this.db.prepare<[], ApiKeyRow>(`SELECT ${keyColumns} FROM api_keys k JOIN accounts a ON a.id = k.account_id ORDER BY k.id`),
      revokeKey: this.db.prepare<[number]>(
        "UPDATE api_keys SET revoked_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ? AND revoked_at IS NULL",
      ),
      keyExists: this.db.prepare<[number]>('SELECT 1 FROM api_keys WHERE id = ?'),
      anyActiveKey: this.db.prepare<[]>('SELECT 1 FROM api_keys WHERE revoked_at IS NULL LIMIT 1'),
      ping: this.db.prepare<[]>('SELECT 1'),
    };
  }

  // The request-path methods are synchronous (better-sqlite3 is): see MaybePromise.
  createPet(pet: NewPet): Pet {
    try {
      return toPet(this.statements.insertPet.get(pet.name, pet.categoryId, pet.status ?? null)!);
    } catch (error) {
      // Another process held the write lock for longer than busy_timeout: retryable, so 503.
      if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) throw new StorageUnavailableError({ cause: error });
      throw error;
    }
  }

  getPet(id: number): Pet | undefined {
    const row = this.statements.getPet.get(id);
    return row && toPet(row);
  }

  listPets({ limit, status, afterId = 0 }: PetPageQuery): Pet[] {
    const rows =
      status === undefined ? this.statements.listPets.all(afterId, limit) : this.statements.listPetsByStatus.all(status, afterId, limit);
    return rows.map(toPet);
  }

  async ensureAccount(name: string): Promise<Account> {
    this.statements.insertAccount.run(name);
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
    const { id } = this.statements.insertKey.get(accountId, hash, displayPrefix)!;
    return toApiKey(this.statements.getKey.get(id)!);
  }

  findActiveApiKey(hash: string): Principal | undefined {
    const row = this.statements.findActiveKey.get(hash);
    return row && { keyId: row.key_id, accountId: row.account_id, accountName: row.account_name };
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    return this.statements.listKeys.all().map(toApiKey);
  }

  async revokeApiKey(id: number): Promise<RevokeResult> {
    if (this.statements.revokeKey.run(id).changes === 1) return 'revoked';
    return this.statements.keyExists.get(id) ? 'already_revoked' : 'not_found';
  }

  async hasActiveApiKey(): Promise<boolean> {
    return this.statements.anyActiveKey.get() !== undefined;
  }

  async ping(): Promise<void> {
    this.statements.ping.get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }
}
