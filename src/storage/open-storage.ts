import { SqliteStorage, sqlitePathFromUrl } from './sqlite/sqlite-storage.js';
import type { Storage } from './storage.js';

/** Picks the backend from DATABASE_URL's scheme; the store is created and migrated if needed. */
export async function openStorage(databaseUrl: string): Promise<Storage> {
  const scheme = databaseUrl.slice(0, databaseUrl.indexOf(':') + 1);
  switch (scheme) {
    case 'file:':
      return new SqliteStorage(sqlitePathFromUrl(databaseUrl));
    default:
      throw new Error(`DATABASE_URL scheme ${JSON.stringify(scheme || databaseUrl)} is not supported; use file:PATH`);
  }
}
