import pg from 'pg';
import { expect } from 'vitest';
import { PostgresStorage } from '../../src/storage/postgres/postgres-storage.js';
import type { StorageOptions } from '../../src/storage/storage.js';
import { postgresBackend } from './backends.js';
import { closeLater } from './resources.js';

/** A PostgresStorage on a fresh database (or on `url`), closed after the test. */
export async function openPostgres(
  options: StorageOptions = {},
  url?: string,
): Promise<{ storage: Awaited<ReturnType<typeof PostgresStorage.open>>; url: string }> {
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

type NamedStatement = { name?: string; text: string };

/** Every statement of a module of statements. */
export function statementsOf(module: Record<string, unknown>): Array<[string, NamedStatement]> {
  return Object.entries(module).filter(
    (entry): entry is [string, NamedStatement] => typeof entry[1] === 'object' && entry[1] !== null && 'text' in entry[1],
  );
}

/** Each statement written once, and each named one under a name of its own (a connection prepares it under that name). */
export function expectEachOnce(modules: readonly Record<string, unknown>[]): void {
  const all = modules.flatMap(statementsOf);
  const texts = all.map(([, statement]) => statement.text);
  expect(new Set(texts).size).toBe(texts.length);
  const names = all.flatMap(([, statement]) => (statement.name === undefined ? [] : [statement.name]));
  expect(new Set(names).size).toBe(names.length);
}
