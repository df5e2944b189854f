import { SqliteStorage, sqlitePathFromUrl } from './sqlite/sqlite-storage.js';
import type { Storage, StorageOptions } from './storage.js';

/** Picks the backend from DATABASE_URL's scheme; the store is created or migrated as needed. */
export async function openStorage(databaseUrl: string, options: StorageOptions = {}): Promise<Storage> {
  // Only the scheme is ever echoed: the rest of the URL may hold a password.
  const scheme = databaseUrl.slice(0, databaseUrl.indexOf(':') + 1);
  switch (scheme) {
    case 'file:':
      return new SqliteStorage(sqlitePathFromUrl(databaseUrl));
    case 'postgres:':
    case 'postgresql:': {
      // Loaded only when used: pg and its dependencies cost an embedded start-up ~30 ms.
      const { PostgresStorage } = await import('./postgres/postgres-storage.js');
      return PostgresStorage.open(databaseUrl, options);
    }
    default:
      throw new Error(
        `DATABASE_URL scheme ${JSON.stringify(scheme || '(none)')} is not supported; use file:PATH or postgres://USER:PASSWORD@HOST:PORT/DB`,
      );
  }
}
