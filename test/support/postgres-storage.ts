import pg from 'pg';
import { PostgresStorage } from '../../src/storage/postgres/postgres-storage.js';
import type { StorageOptions } from '../../src/storage/storage.js';
import { postgresBackend } from './backends.js';
import { closeLater } from './resources.js';

/** A PostgresStorage on a fresh database (or on `url`), closed after the test. */
export async function openPostgres(options: StorageOptions = {}, url?: string): Promise<{ storage: PostgresStorage; url: string }> {
  const databaseUrl = url ?? (await postgresBackend.createDatabaseUrl());
  const storage = await PostgresStorage.open(databaseUrl, options);
  closeLater(storage);
  return { storage, url: databaseUrl };
}

/** A plain client on the database, for what the storage does not show; closed after the test. */
export async function sqlClient(url: string): Promise<pg.Client> {
  const client = new pg.Client(url);
  await client.connect();
  closeLater({ close: () => client.end() });
  return client;
}

/** A pool of its own on the database, as the storage's modules take one; closed after the test. */
export function testPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url });
  closeLater({ close: () => pool.end() });
  return pool;
}
