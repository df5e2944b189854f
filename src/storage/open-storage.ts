import type { Storage, StorageKind, StorageOptions } from './storage.js';

/** Which backend serves a DATABASE_URL, by its scheme. */
export function storageKindOf(databaseUrl: string): StorageKind {
  // Only the scheme is ever echoed: the rest of the URL may hold a password.
  const scheme = databaseUrl.slice(0, databaseUrl.indexOf(':') + 1);
  switch (scheme) {
    case 'file:':
      return 'sqlite';
    case 'postgres:':
    case 'postgresql:':
      return 'postgres';
    default:
      throw new Error(
        `DATABASE_URL scheme ${JSON.stringify(scheme || '(none)')} is not supported; use file:PATH or postgres://USER:PASSWORD@HOST:PORT/DB`,
      );
  }
}

/**
 * Opens the store a DATABASE_URL names, creating or migrating it as needed. Each backend is loaded
 * only when used: pg and its dependencies would cost every SQLite start their loading time.
 */
export async function openStorage(databaseUrl: string, options: StorageOptions = {}): Promise<Storage> {
  switch (storageKindOf(databaseUrl)) {
    case 'sqlite': {
      const { SqliteStorage } = await import('./sqlite/sqlite-storage.js');
      return SqliteStorage.open(databaseUrl, options);
    }
    case 'postgres': {
      const { PostgresStorage } = await import('./postgres/postgres-storage.js');
      return PostgresStorage.open(databaseUrl, options);
    }
  }
}
