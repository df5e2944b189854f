import pg from 'pg';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { afterEach, describe, expect, it } from 'vitest';
import { postgresMigrations } from '../../../src/storage/postgres/migrations.js';
import {
  advisoryLockKey,
  isUnavailable,
  LIST_PETS_BY_STATUS_SQL,
  migratePostgres,
  PostgresStorage,
} from '../../../src/storage/postgres/postgres-storage.js';
import { StorageUnavailableError } from '../../../src/storage/storage.js';
import { postgresBackend } from '../../support/backends.js';
import { expireAndWriteOnce, LEFT_AFTER_ONE_WRITE } from '../../support/idempotency.js';
import { freePort } from '../../support/postgres-server.js';

const pools: Array<pg.Pool | pg.Client | PostgresStorage> = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((resource) => (resource instanceof PostgresStorage ? resource.close() : resource.end())));
});

async function connect(url: string): Promise<pg.Client> {
  const client = new pg.Client(url);
  await client.connect();
  pools.push(client);
  return client;
}

describe('PostgreSQL storage', () => {
  it('applies each migration exactly once when many processes start together', async () => {
    const url = await postgresBackend.createDatabaseUrl();
    const storages = await Promise.all(Array.from({ length: 6 }, () => PostgresStorage.open(url, { poolSize: 2 })));
    pools.push(...storages);
    const client = await connect(url);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    expect(rows.map((row) => row.version)).toEqual(postgresMigrations.map((m) => m.version));
  });

  it('migrates an older database forward, applying only what is new', async () => {
    const url = await postgresBackend.createDatabaseUrl();
    const pool = new pg.Pool({ connectionString: url });
    pools.push(pool);
    expect(await migratePostgres(pool, postgresMigrations.slice(0, 1))).toEqual([1]);
    const next = { version: 2, name: 'test column', sql: 'ALTER TABLE pets ADD COLUMN nickname text' };
    expect(await migratePostgres(pool, [...postgresMigrations.slice(0, 1), next])).toEqual([2]);
    expect(await migratePostgres(pool, [...postgresMigrations.slice(0, 1), next])).toEqual([]);
  });

  it('maps int8 to exact numbers up to 2^53 - 1', async () => {
    const storage = await PostgresStorage.open(await postgresBackend.createDatabaseUrl());
    pools.push(storage);
    const pet = await storage.createPet({ name: 'Big', categoryId: Number.MAX_SAFE_INTEGER });
    expect(pet).toEqual({ id: 1, name: 'Big', categoryId: Number.MAX_SAFE_INTEGER });
    expect(typeof pet.id).toBe('number');
    expect(await storage.getPet(1)).toEqual(pet);
  });

  it('refuses to round an int8 beyond 2^53 - 1 that reached the table', async () => {
    const url = await postgresBackend.createDatabaseUrl();
    const storage = await PostgresStorage.open(url);
    pools.push(storage);
    await (await connect(url)).query("INSERT INTO pets (name, category_id) VALUES ('x', 9007199254740993)");
    await expect(storage.getPet(1)).rejects.toThrow('int8 value 9007199254740993 is outside the safe integer range');
  });

  it('never reuses an id, even after the newest row is gone', async () => {
    const url = await postgresBackend.createDatabaseUrl();
    const storage = await PostgresStorage.open(url);
    pools.push(storage);
    await storage.createPet({ name: 'a', categoryId: 1 });
    await storage.createPet({ name: 'b', categoryId: 1 });
    await (await connect(url)).query('DELETE FROM pets WHERE id = 2');
    expect((await storage.createPet({ name: 'c', categoryId: 1 })).id).toBe(3);
  });

  it('clears a few expired idempotency records with each new one, never one that has not expired', async () => {
    const url = await postgresBackend.createDatabaseUrl();
    const storage = await PostgresStorage.open(url);
    pools.push(storage);
    await expireAndWriteOnce(storage);
    const { rows } = await (await connect(url)).query<{ key: string }>('SELECT key FROM idempotency_keys ORDER BY expires_at, key');
    expect(rows).toHaveLength(LEFT_AFTER_ONE_WRITE);
    expect(rows.slice(-4).map((row) => row.key)).toEqual(['late-0', 'late-1', 'late-2', 'new']);
  });

  it('locks each account and Idempotency-Key on its own int8, written as a literal', () => {
    const key = advisoryLockKey(1, 'k');
    expect(key).toMatch(/^-?\d{1,19}$/);
    expect(BigInt.asIntN(64, BigInt(key))).toBe(BigInt(key));
    expect(advisoryLockKey(1, 'k')).toBe(key);
    expect(new Set([key, advisoryLockKey(2, 'k'), advisoryLockKey(1, 'k2'), advisoryLockKey(11, ':k')]).size).toBe(4);
  });

  it('serves a page of a rare status in id order from the status index', async () => {
    const url = await postgresBackend.createDatabaseUrl();
    pools.push(await PostgresStorage.open(url));
    const client = await connect(url);
    await client.query(
      "INSERT INTO pets (name, category_id, status) SELECT 'p' || n, 1, CASE WHEN n % 1000 = 0 THEN 'sold' ELSE 'available' END FROM generate_series(1, 20000) n",
    );
    await client.query('ANALYZE pets');
    // The storage's own statement, planned for its values as the storage runs it (unnamed).
    await client.query(`PREPARE page(text, bigint, int) AS ${LIST_PETS_BY_STATUS_SQL}`);
    await client.query('SET plan_cache_mode = force_custom_plan');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>("EXPLAIN EXECUTE page('sold', 5, 21)");
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index (Only )?Scan using pets_status_id/);
    expect(plan).not.toMatch(/Sort|Filter/);
    await client.query('VACUUM pets');
    const vacuumed = await client.query<{ 'QUERY PLAN': string }>("EXPLAIN EXECUTE page('sold', 5, 21)");
    expect(vacuumed.rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/Index Only Scan using pets_status_id/);
  });

  it('shows its pool to the metrics, read whenever they are', async () => {
    let read: (() => { total: number; idle: number; waiting: number; max: number }) | undefined;
    const storage = await PostgresStorage.open(await postgresBackend.createDatabaseUrl(), {
      poolSize: 3,
      metrics: { observeCommit: () => {}, observePool: (reader) => (read = reader) },
    });
    pools.push(storage);
    expect(read!()).toEqual({ total: 1, idle: 1, waiting: 0, max: 3 });
    const busy = Array.from({ length: 5 }, () => storage.ping());
    // Five queries at once: all waiting for a connection of the pool, or using one.
    const during = read!();
    expect(during.waiting + (during.total - during.idle)).toBe(5);
    await Promise.all(busy);
    // The pool opened as many connections as it may, and they are idle again.
    expect(read!()).toEqual({ total: 3, idle: 3, waiting: 0, max: 3 });
  });

  it('counts rate limits in an unlogged table that every process shares', async () => {
    const url = await postgresBackend.createDatabaseUrl();
    const [one, two] = await Promise.all([PostgresStorage.open(url), PostgresStorage.open(url)]);
    pools.push(one, two);
    const policy = { keyPrefix: 'test', points: 3, durationSeconds: 60 };
    const [a, b] = [one.sharedRateLimiter(policy), two.sharedRateLimiter(policy)];
    expect((await a.consume(7)).remainingPoints).toBe(2);
    expect((await b.consume(7)).remainingPoints).toBe(1);
    expect((await a.consume(7)).remainingPoints).toBe(0);
    const over = await b.consume(7).catch((rejection: unknown) => rejection);
    expect(over).toBeInstanceOf(RateLimiterRes);
    expect((over as RateLimiterRes).msBeforeNext).toBeGreaterThan(58_000);
    expect((await a.consume(8)).remainingPoints).toBe(2); // another key
    const client = await connect(url);
    const { rows } = await client.query<{ key: string; points: number }>('SELECT key, points FROM rate_limits ORDER BY key');
    expect(rows).toEqual([
      { key: 'test:7', points: 4 },
      { key: 'test:8', points: 1 },
    ]);
    const { rows: kind } = await client.query<{ relpersistence: string }>(
      "SELECT relpersistence FROM pg_class WHERE relname = 'rate_limits'",
    );
    expect(kind).toEqual([{ relpersistence: 'u' }]);
  });

  it('counts in memory while the rate limit table cannot be used', async () => {
    const url = await postgresBackend.createDatabaseUrl();
    const storage = await PostgresStorage.open(url);
    pools.push(storage);
    await (await connect(url)).query('DROP TABLE rate_limits');
    const limiter = storage.sharedRateLimiter({ keyPrefix: 'test', points: 1, durationSeconds: 60 });
    expect((await limiter.consume(1)).remainingPoints).toBe(0);
    await expect(limiter.consume(1)).rejects.toBeInstanceOf(RateLimiterRes);
  });

  it('reports an unreachable database as StorageUnavailableError', async () => {
    const port = await freePort(); // nothing listens there
    await expect(PostgresStorage.open(`postgres://nobody:secret@127.0.0.1:${port}/none`)).rejects.toBeInstanceOf(StorageUnavailableError);
  });

  it.each([
    [{ code: 'ECONNREFUSED' }, true],
    [{ code: '57P01' }, true],
    [{ code: '08006' }, true],
    [{ message: 'Connection terminated unexpectedly' }, true],
    [{ message: 'timeout exceeded when trying to connect' }, true],
    [{ code: '23505' }, false],
    [{ code: '42P01' }, false],
    [new Error('boom'), false],
  ])('classifies %j as unavailable: %s', (error, expected) => {
    expect(isUnavailable(error)).toBe(expected);
  });
});

describe('PostgreSQL pet creates, group-committed', () => {
  it('inserts the creates that arrive together as one batch, each pet answered with its own id', async () => {
    const batches: number[] = [];
    const storage = await PostgresStorage.open(await postgresBackend.createDatabaseUrl(), {
      metrics: { observeCommit: (writes) => batches.push(writes), observePool: () => {} },
    });
    pools.push(storage);
    const pets = await Promise.all(Array.from({ length: 40 }, (_, i) => storage.createPet({ name: `pet-${i}`, categoryId: i + 1 })));
    expect(pets.map((pet) => pet.name)).toEqual(Array.from({ length: 40 }, (_, i) => `pet-${i}`));
    expect(pets.map((pet) => pet.categoryId)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(new Set(pets.map((pet) => pet.id)).size).toBe(40);
    expect(batches.reduce((sum, writes) => sum + writes, 0)).toBe(40);
    expect(Math.max(...batches)).toBeGreaterThan(1);
    for (const pet of pets) expect(await storage.getPet(pet.id)).toEqual(pet);
  });

  it('fails only the pet whose row fails, inserting the rest of its batch', async () => {
    const storage = await PostgresStorage.open(await postgresBackend.createDatabaseUrl());
    pools.push(storage);
    const first = storage.createPet({ name: 'first', categoryId: 1 });
    // bigint holds no 1e19: that row fails, and only that one.
    const outcomes = await Promise.allSettled([
      storage.createPet({ name: 'a', categoryId: 2 }),
      storage.createPet({ name: 'b', categoryId: 1e19 }),
      storage.createPet({ name: 'c', categoryId: 3 }),
    ]);
    await first;
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((await storage.listPets({ limit: 10 })).map((pet) => pet.name).sort()).toEqual(['a', 'c', 'first']);
  });
});
