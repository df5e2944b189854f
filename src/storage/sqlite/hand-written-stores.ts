// Generated from openapi.yaml by `npm run generate`: do not edit. CI fails when it is stale.
// The hand-written store of each table whose x-storage has `handWritten: true`, in
// src/storage/<table>/sqlite.ts, composed into the SQLite backend (src/storage/hand-written.ts).
import type { SqliteHandWrittenStore } from '../hand-written.js';
import { sqliteStore as pets } from '../pets/sqlite.js';

export const SQLITE_STORES: Readonly<Record<string, SqliteHandWrittenStore<object>>> = {
  pets,
};
