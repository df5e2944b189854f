// The seam through which a table whose x-storage says `handWritten: true` gets a store written by hand
// (tuned reads, batched writes) instead of only the generic resource store: each backend composes
// the stores its generated registry lists (src/storage/<backend>/hand-written-stores.ts), so that no
// backend names one, and a document without such a table has none.
import type Database from 'better-sqlite3';
import type { PostgresHandWritten } from './postgres/hand-written-stores.js';
import type { Queries } from './postgres/queries.js';
import type { ResourceStore } from './resources.js';
import type { CommitObserver } from './storage-metrics.js';

/** A write of a hand-written store, run in the SQLite writer's batch transaction on the writer thread's connection. */
export interface StoreWrite {
  /** Takes what the main thread posted (plain data: it crosses threads) and returns plain data. */
  run(args: never): unknown;
  /**
   * One statement that writes (then at most reads): SQLite undoes it alone when it fails, so it needs
   * no savepoint of its own in the batch.
   */
  singleStatement?: boolean;
}

/** What a hand-written store gets from the SQLite backend. */
export interface SqliteStoreContext {
  /** The main thread's connection: reads run on it, synchronously. */
  db: Database.Database;
  /** Posts one of the store's writes (`writes`, by name) to the writer, group-committed with every other write. */
  write: (name: string, args: unknown) => Promise<unknown>;
  /** The backend's generic store, for what the store leaves to it (a keyed create, say). */
  resources: ResourceStore;
}

export interface SqliteHandWrittenStore<Store extends object> {
  /** The store's writes by name, prepared on the writer's connection. */
  writes(db: Database.Database): Readonly<Record<string, StoreWrite>>;
  open(context: SqliteStoreContext): Store;
}

/** What a hand-written store gets from the PostgreSQL backend. */
export interface PostgresStoreContext {
  queries: Queries;
  /** Where a store that commits batches of its own reports each (the storage metrics). */
  onCommit?: CommitObserver;
  resources: ResourceStore;
}

export interface PostgresHandWrittenStore<Store extends object> {
  open(context: PostgresStoreContext): Store;
}

type UnionToIntersection<U> = (U extends unknown ? (union: U) => void : never) extends (intersection: infer I) => void ? I : never;

/**
 * Every hand-written store's methods, as each backend exposes them (flat on the storage object, so a
 * call costs what a backend's own method does). None when the document has no such table.
 */
export type HandWrittenStores = [PostgresHandWritten] extends [never] ? Record<never, never> : UnionToIntersection<PostgresHandWritten>;

/** Puts the stores' methods on the backend's object; a name two of them share stops the start. */
export function composeStores<Backend extends object>(backend: Backend, stores: readonly object[]): Backend & HandWrittenStores {
  for (const store of stores) {
    for (const name of Object.keys(store)) {
      if (name in backend) throw new Error(`two stores of the storage both have ${name}`);
    }
    Object.assign(backend, store);
  }
  return backend as Backend & HandWrittenStores;
}
