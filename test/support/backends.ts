import { tempDatabaseUrl } from './processes.js';

/**
 * The storage backends every API test runs against. Each gives a fresh, empty database as a
 * DATABASE_URL, usable both in-process (openStorage) and by a server or CLI process.
 */
export interface Backend {
  name: string;
  createDatabaseUrl(): Promise<string>;
}

export const sqliteBackend: Backend = {
  name: 'sqlite',
  createDatabaseUrl: async () => tempDatabaseUrl(),
};

export const backends: Backend[] = [sqliteBackend];
