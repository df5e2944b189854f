// Generated from openapi.yaml by `npm run generate`: do not edit. CI fails when it is stale.
// The hand-written store of each table whose x-storage has `handWritten: true`, in
// src/storage/<table>/postgres.ts, composed into the PostgreSQL backend (src/storage/hand-written.ts).
import type { PostgresHandWrittenStore } from '../hand-written.js';
import { postgresStore as pets } from '../pets/postgres.js';

export const POSTGRES_STORES: Readonly<Record<string, PostgresHandWrittenStore<object>>> = {
  pets,
};

/** The methods of each store, as the backends expose them. */
export type PostgresHandWritten = ReturnType<typeof pets.open>;
