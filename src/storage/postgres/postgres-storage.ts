import { createHash } from 'node:crypto';
import pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';
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
  type CommitObserver,
  type NewApiKey,
  type IdempotencyRequest,
  type IdempotentOutcome,
  type NewPet,
  type Pet,
  type PetPageQuery,
  type PetStatus,
  type Principal,
  type RecordedResponse,
  type RevokeResult,
  type SharedRateLimitPolicy,
  type Storage,
  type StorageOptions,
} from '../storage.js';
import { GroupCommit, type Settled } from '../group-commit.js';
import { postgresMigrations } from './migrations.js';

const INT8_OID = 20;

/**
 * pg returns int8 (bigint) as a string, because not every int8 fits a JS number. Ours are ids and
 * category ids the API limits to 2^53 - 1, so they are numbers here; anything larger would be a
 * corrupted row and fails loudly instead of being rounded.
 */
function parseInt8(text: string): number {
  const value = Number(text);
  if (!Number.isSafeInteger(value)) throw new RangeError(`int8 value ${text} is outside the safe integer range`);
  return value;
}

const typeParsers = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8_OID && format !== 'binary'
      ? parseInt8
      : (pg.types.getTypeParser(oid, format) as unknown)) as typeof pg.types.getTypeParser,
};

// SQLSTATE classes and Node socket errors that mean "the database is not reachable right now".
const UNAVAILABLE_SQLSTATES = new Set(['57P01', '57P02', '57P03', '53300', '53400']);
const UNAVAILABLE_SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
  'ENETUNREACH',
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|connection is closed|Connection refused/i;

export function isUnavailable(error: unknown): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  if (typeof code === 'string' && (code.startsWith('08') || UNAVAILABLE_SQLSTATES.has(code) || UNAVAILABLE_SOCKET_CODES.has(code)))
    return true;
  return typeof message === 'string' && UNAVAILABLE_MESSAGES.test(message);
}

// Any constants work, as long as every process of this service uses the same ones.
const MIGRATION_LOCK_KEY = 7_318_442_001;
const BOOTSTRAP_LOCK_KEY = 7_318_442_002;

/** Timestamps as the rows of both backends carry them: RFC 3339 in UTC, to the millisecond. */
const utc = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * A page of one status, in id order. Sent unnamed, so planned on every run for the status it asks
 * for: the generic plan that PostgreSQL may settle on for a named statement after five runs assumes
 * an average status and walks the primary key, filtering, which for a rare status reads a hundred
 * rows for every one it returns.
 */
export const LIST_PETS_BY_STATUS_SQL = `SELECT ${PET_COLUMNS} FROM pets WHERE status = $1 AND id > $2 ORDER BY id LIMIT $3`;
const INSERT_PET_SQL = `INSERT INTO pets (name, category_id, status) VALUES ($1, $2, $3) RETURNING ${PET_COLUMNS}`;
/**
 * A batch of pets in one statement (one round trip, one commit). The rows are inserted in the order
 * of the arrays, so their identity ids increase in that order: sorted by id, the rows RETURNING gives
 * back line up with the pets sent.
 */
const INSERT_PETS_SQL = `INSERT INTO pets (name, category_id, status)
  SELECT name, category_id, status FROM unnest($1::text[], $2::bigint[], $3::text[]) WITH ORDINALITY AS t(name, category_id, status, n)
  ORDER BY n
  RETURNING ${PET_COLUMNS}`;

/**
 * The new record of a key, replacing its expired one if there is one (the caller holds the key's
 * lock and saw no unexpired record), after clearing away a few other expired records: SKIP LOCKED,
 * so that concurrent requests never wait for each other's clean-up.
 */
const PUT_IDEMPOTENCY_RECORD_SQL = `
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
    body = EXCLUDED.body, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at`;

/**
 * The advisory lock of an account's key: 64 bits of SHA-256, as an int8 literal (digits only, so it
 * can travel with BEGIN in one simple query). A collision only makes two keys wait for each other.
 */
export function advisoryLockKey(accountId: number, key: string): string {
  return createHash('sha256').update(`${accountId}:${key}`).digest().readBigInt64BE(0).toString();
}

/** The key's unexpired record, or else (in the same statement) the new pet: one row either way. */
const RECORD_OR_NEW_PET_SQL = `
  WITH record AS (
    SELECT fingerprint, status, headers, body FROM idempotency_keys
     WHERE account_id = $1 AND key = $2 AND expires_at > $3
  ), created AS (
    INSERT INTO pets (name, category_id, status)
    SELECT $4, $5, $6 WHERE NOT EXISTS (SELECT FROM record)
    RETURNING id, name, category_id, status
  )
  SELECT fingerprint, status, headers, body, NULL::bigint AS id, NULL::text AS name, NULL::bigint AS category_id, NULL::text AS pet_status
    FROM record
  UNION ALL
  SELECT NULL, NULL, NULL, NULL, id, name, category_id, status FROM created`;

type RecordOrPetRow = { [K in keyof IdempotencyRow]: IdempotencyRow[K] | null } & {
  id: number | null;
  name: string | null;
  category_id: number | null;
  pet_status: PetStatus | null;
};

const KEY_COLUMNS = `k.id, k.account_id, a.name AS account_name, k.display_prefix, ${utc('k.created_at')} AS created_at, ${utc('k.revoked_at')} AS revoked_at`;

/**
 * Applies pending migrations under a session advisory lock, so that processes starting together
 * against one database apply each migration exactly once, one after the other.
 */
export async function migratePostgres(pool: pg.Pool, migrations: readonly Migration[] = postgresMigrations): Promise<number[]> {
  const client = await pool.connect();
  const newlyApplied: number[] = [];
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await client.query(
        'CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
      );
      const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
      const applied = new Set(rows.map((row) => row.version));
      for (const migration of migrations) {
        if (applied.has(migration.version)) continue;
        await client.query('BEGIN');
        try {
          await client.query(migration.sql);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
        newlyApplied.push(migration.version);
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
  return newlyApplied;
}

/** The scale-out backend: a pg pool per process, named prepared statements, advisory-locked migrations. */
export class PostgresStorage implements Storage {
  readonly kind = 'postgres';

  /** Creates without a key, group-committed: those that arrive while a batch is inserted go in the next. */
  private readonly petInserts: GroupCommit<NewPet, Pet>;

  private constructor(
    private readonly pool: pg.Pool,
    onCommit?: CommitObserver,
  ) {
    this.petInserts = new GroupCommit(async (pets) => {
      const started = performance.now();
      const settled = await this.insertPets(pets);
      onCommit?.(pets.length, (performance.now() - started) / 1000);
      return settled;
    });
  }

  /**
   * One statement for the batch. If it fails for a reason other than an unreachable database (which
   * fails them all, as 503), each pet is inserted on its own, so that only a pet whose row fails
   * fails; none is acknowledged without its own commit.
   */
  private async insertPets(pets: NewPet[]): Promise<Array<Settled<Pet>>> {
    if (pets.length > 1) {
      try {
        const rows = await this.petRows('insert-pets', INSERT_PETS_SQL, [
          pets.map((pet) => pet.name),
          pets.map((pet) => pet.categoryId),
          pets.map((pet) => pet.status ?? null),
        ]);
        return rows.sort(([a], [b]) => a - b).map((row) => ({ ok: true, value: petFromRow(row) }));
      } catch (error) {
        if (error instanceof StorageUnavailableError) throw error;
      }
    }
    return Promise.all(
      pets.map(async (pet): Promise<Settled<Pet>> => {
        try {
          const [row] = await this.petRows('insert-pet', INSERT_PET_SQL, [pet.name, pet.categoryId, pet.status ?? null]);
          return { ok: true, value: petFromRow(row!) };
        } catch (error) {
          return { ok: false, error: error instanceof Error ? error : new Error(String(error)) };
        }
      }),
    );
  }

  /** Connects to a `postgres:` DATABASE_URL, then creates or migrates the schema. */
  static async open(databaseUrl: string, options: StorageOptions = {}): Promise<PostgresStorage> {
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 2000,
      idleTimeoutMillis: 30_000,
      keepAlive: true,
      types: typeParsers,
    });
    // An idle connection dropped by the server emits 'error' on the pool; unhandled, it would
    // crash the process. The next query simply opens a new connection.
    pool.on('error', (error) => options.onBackgroundError?.(error));
    options.metrics?.observePool(() => ({
      total: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      max: pool.options.max,
    }));
    const storage = new PostgresStorage(pool, options.metrics?.observeCommit);
    try {
      await storage.guard(() => migratePostgres(pool));
    } catch (error) {
      await pool.end();
      throw error;
    }
    return storage;
  }

  /** Every query goes through here, so that an unreachable database always surfaces as 503. */
  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUnavailable(error)) throw new StorageUnavailableError({ cause: error });
      throw error;
    }
  }

  /**
   * A named statement is parsed once per connection, and PostgreSQL may plan it once for all
   * values; `name: null` sends it unnamed, planned on every run for its values.
   */
  private async rows<R extends pg.QueryResultRow>(name: string | null, text: string, values: unknown[] = []): Promise<R[]> {
    return this.guard(async () => (await this.pool.query<R>(name === null ? { text, values } : { name, text, values })).rows);
  }

  /** Pet rows come as arrays, the shape both backends share (see PetRow). */
  private async petRows(name: string | null, text: string, values: unknown[]): Promise<PetRow[]> {
    const config = { text, values, rowMode: 'array' as const, ...(name === null ? {} : { name }) };
    return this.guard(async () => (await this.pool.query<PetRow>(config)).rows);
  }

  createPet(pet: NewPet): Promise<Pet> {
    return this.petInserts.submit(pet);
  }

  /**
   * One transaction that first takes a transaction-scoped advisory lock on the account and key, with
   * try-lock: a request that finds the key locked is another one with the same key still in flight,
   * in this process or any other, and gets 409 at once instead of waiting for it (the draft's
   * answer). The holder reads the record only after taking the lock, in a statement of its own, so it
   * sees any commit of an earlier holder (PostgreSQL releases the lock after the commit is visible):
   * a retry after the first request finished replays it, and the pet and the record commit together
   * or not at all. The primary key on (account_id, key) backs this up. Four round trips: BEGIN with
   * the lock, the record or else the new pet, the record of the new pet, COMMIT.
   */
  async createPetIdempotently(
    pet: NewPet,
    idempotency: IdempotencyRequest,
    respond: (pet: Pet) => RecordedResponse,
  ): Promise<IdempotentOutcome> {
    const { accountId, key, fingerprint, now, expiresAt } = idempotency;
    const tryLock = `SELECT pg_try_advisory_xact_lock(${advisoryLockKey(accountId, key)}) AS locked`;
    return this.transaction<IdempotentOutcome, { locked: boolean }>(tryLock, async (client, [lock]) => {
      if (!lock!.locked) return { kind: 'in_progress' };
      const {
        rows: [found],
      } = await client.query<RecordOrPetRow>({
        name: 'get-idempotency-record-or-insert-pet',
        text: RECORD_OR_NEW_PET_SQL,
        values: [accountId, key, now, pet.name, pet.categoryId, pet.status ?? null],
      });
      if (found!.fingerprint !== null) return outcomeOfRecord(found as IdempotencyRow, fingerprint);
      const response = respond(petFromRow([found!.id!, found!.name!, found!.category_id!, found!.pet_status]));
      await client.query({
        name: 'put-idempotency-record',
        text: PUT_IDEMPOTENCY_RECORD_SQL,
        values: [accountId, key, fingerprint, response.status, headersToColumn(response), response.body, now, expiresAt],
      });
      return { kind: 'created', response };
    });
  }

  /**
   * `work` in a transaction on one connection: committed when it returns, rolled back when it throws.
   * `opening`, a statement without parameters, travels with BEGIN (one round trip); work gets its rows.
   */
  private async transaction<T, Opening extends pg.QueryResultRow>(
    opening: string,
    work: (client: pg.PoolClient, openingRows: Opening[]) => Promise<T>,
  ): Promise<T> {
    return this.guard(async () => {
      const client = await this.pool.connect();
      let broken: Error | undefined;
      try {
        const [, opened] = (await client.query(`BEGIN; ${opening}`)) as unknown as [pg.QueryResult, pg.QueryResult<Opening>];
        try {
          const result = await work(client, opened.rows);
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
          throw error;
        }
      } catch (error) {
        if (isUnavailable(error)) broken ??= error as Error;
        throw error;
      } finally {
        // A connection that failed is dropped from the pool rather than reused.
        client.release(broken);
      }
    });
  }

  async getPet(id: number): Promise<Pet | undefined> {
    const [row] = await this.petRows('get-pet', `SELECT ${PET_COLUMNS} FROM pets WHERE id = $1`, [id]);
    return row && petFromRow(row);
  }

  async listPets({ limit, status, afterId = 0 }: PetPageQuery): Promise<Pet[]> {
    const rows =
      status === undefined
        ? await this.petRows('list-pets', `SELECT ${PET_COLUMNS} FROM pets WHERE id > $1 ORDER BY id LIMIT $2`, [afterId, limit])
        : await this.petRows(null, LIST_PETS_BY_STATUS_SQL, [status, afterId, limit]);
    return rows.map(petFromRow);
  }

  async ensureAccount(name: string): Promise<Account> {
    // The no-op update makes RETURNING yield the row whether it was inserted now or existed.
    const [row] = await this.rows<{ id: number; name: string; created_at: string }>(
      'ensure-account',
      `INSERT INTO accounts (name) VALUES ($1) ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id, name, ${utc('created_at')} AS created_at`,
      [name],
    );
    return { id: row!.id, name: row!.name, createdAt: row!.created_at };
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
    const [row] = await this.rows<ApiKeyRow>(
      'insert-key',
      `WITH k AS (INSERT INTO api_keys (account_id, key_hash, display_prefix) VALUES ($1, $2, $3) RETURNING *)
       SELECT ${KEY_COLUMNS} FROM k JOIN accounts a ON a.id = k.account_id`,
      [accountId, hash, displayPrefix],
    );
    return apiKeyFromRow(row!);
  }

  async findActiveApiKey(hash: string): Promise<Principal | undefined> {
    const [row] = await this.rows<PrincipalRow>(
      'find-active-key',
      `SELECT k.id AS key_id, k.account_id, a.name AS account_name
         FROM api_keys k JOIN accounts a ON a.id = k.account_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [hash],
    );
    return row && principalFromRow(row);
  }

  async listApiKeys(): Promise<ApiKeyRecord[]> {
    const rows = await this.rows<ApiKeyRow>(
      'list-keys',
      `SELECT ${KEY_COLUMNS} FROM api_keys k JOIN accounts a ON a.id = k.account_id ORDER BY k.id`,
    );
    return rows.map(apiKeyFromRow);
  }

  async revokeApiKey(id: number): Promise<RevokeResult> {
    const [row] = await this.rows<{ revoked_now: boolean }>(
      'revoke-key',
      `WITH updated AS (UPDATE api_keys SET revoked_at = now() WHERE id = $1 AND revoked_at IS NULL RETURNING id)
       SELECT EXISTS (SELECT 1 FROM updated) AS revoked_now FROM api_keys WHERE id = $1`,
      [id],
    );
    if (!row) return 'not_found';
    return row.revoked_now ? 'revoked' : 'already_revoked';
  }

  async hasActiveApiKey(): Promise<boolean> {
    return (await this.rows('any-active-key', 'SELECT 1 FROM api_keys WHERE revoked_at IS NULL LIMIT 1')).length > 0;
  }

  async createFirstApiKey({ accountName, hash, displayPrefix }: NewApiKey): Promise<ApiKeyRecord | undefined> {
    return this.guard(async () => {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        // Held to the end of the transaction: processes starting together check one after the other.
        await client.query('SELECT pg_advisory_xact_lock($1)', [BOOTSTRAP_LOCK_KEY]);
        const active = await client.query('SELECT 1 FROM api_keys WHERE revoked_at IS NULL LIMIT 1');
        if (active.rows.length > 0) {
          await client.query('COMMIT');
          return undefined;
        }
        const account = await client.query<{ id: number }>(
          'INSERT INTO accounts (name) VALUES ($1) ON CONFLICT (name) DO UPDATE SET name = EXCLUDED.name RETURNING id',
          [accountName],
        );
        const [row] = (
          await client.query<ApiKeyRow>(
            `WITH k AS (INSERT INTO api_keys (account_id, key_hash, display_prefix) VALUES ($1, $2, $3) RETURNING *)
             SELECT ${KEY_COLUMNS} FROM k JOIN accounts a ON a.id = k.account_id`,
            [account.rows[0]!.id, hash, displayPrefix],
          )
        ).rows;
        await client.query('COMMIT');
        return apiKeyFromRow(row!);
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      } finally {
        client.release();
      }
    });
  }

  /**
   * Counts in the rate_limits table (migration 4: unlogged, so a count costs no WAL flush, and a
   * crash merely resets the windows), one atomic upsert per call, so every process sees every count
   * (the HTTP layer takes a share of the quota per call: src/http/rate-limits/leased-quota.ts).
   * Should the table fail, this process counts on its own (in memory) until it answers again.
   */
  sharedRateLimiter({ keyPrefix, points, durationSeconds }: SharedRateLimitPolicy): RateLimiterAbstract {
    return new RateLimiterPostgres({
      storeClient: this.pool,
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      // Rows of keys unused for an hour are deleted every 5 minutes.
      clearExpiredByTimeout: true,
      keyPrefix,
      points,
      duration: durationSeconds,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix, points, duration: durationSeconds }),
    });
  }

  async ping(): Promise<void> {
    await this.rows('ping', 'SELECT 1');
  }

  async close(): Promise<void> {
    if (!this.pool.ended) await this.pool.end();
  }
}
