import pg from 'pg';
import type { StorageOptions } from '../storage.js';

const INT8_OID = 20;

/**
 * pg returns int8 (bigint) as a string, because not every int8 fits a JS number. Ours are ids and
 * category ids the API limits to 2^53 - 1, so they are numbers here; anything larger would be a
 * corrupted row and fails loudly instead of being rounded.
 */
export function parseInt8(text: string): number {
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

/** The pool of one process's connections to a `postgres:` DATABASE_URL, shown to the metrics. */
export function createPool(databaseUrl: string, options: StorageOptions): pg.Pool {
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
  return pool;
}
