import type { OperationQueries } from '../../generated/queries.js';
import type { ApiKeyStore } from './api-keys.js';
import type { HandWrittenStores } from './hand-written.js';
import type { QuotaStore } from './quotas.js';
import type { ResourceStore } from './resources.js';
import type { StorageMetrics } from './storage-metrics.js';

// The whole of a backend, for the wiring that holds one (main, the HTTP app) and hands each consumer
// the concern it uses: handlers the resource store, auth an ApiKeyStore, and so on.
export type * from './api-keys.js';
export type * from './idempotency.js';
export type * from './quotas.js';
export type * from './resources.js';
export type * from './storage-metrics.js';

/** The backends there are: `file:` URLs are SQLite, `postgres:` URLs PostgreSQL. */
export type StorageKind = 'sqlite' | 'postgres';

/** A backend's own state: which it is, whether its database answers, and its end. */
export interface StorageLifecycle {
  /** Which backend this is, for logs and health output. */
  readonly kind: StorageKind;
  /** Resolves when the database answers; rejects with StorageUnavailableError otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

/**
 * The storage query of each operation marked `x-storage: query` in openapi.yaml (generated/queries.ts),
 * each written in src/storage/<backend>/operations/ (scaffolded by `npm run generate`).
 */
export interface OperationStore {
  readonly operations: OperationQueries;
}

/**
 * What every backend (SQLite, PostgreSQL) implements, one interface per concern, so one slots in
 * without touching their consumers.
 */
export interface CoreStorage extends ApiKeyStore, QuotaStore, OperationStore, ResourceStore, StorageLifecycle {}

/** Persistence for the whole service: the core, and the hand-written stores the document's x-storage asks for. */
export type Storage = CoreStorage & HandWrittenStores;

/**
 * The database cannot be reached (down, restarting, unreachable, out of connections). The HTTP
 * layer answers 503 service_unavailable; anything else a backend throws is a 500.
 */
export class StorageUnavailableError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('the database is unavailable', options);
    this.name = 'StorageUnavailableError';
  }
}

/**
 * The storage query of an operation as `npm run generate` scaffolded it, not written yet: the HTTP
 * layer answers 501 not_implemented, naming the operation, and logs the file to write.
 */
export class QueryNotWrittenError extends Error {
  constructor(
    readonly operationId: string,
    readonly file: string,
  ) {
    super(`the storage query of ${operationId} is not written yet: write it in ${file}`);
    this.name = 'QueryNotWrittenError';
  }
}

/** Settings every backend understands; each uses what applies to it. */
export interface StorageOptions {
  /** Most connections one process holds (PostgreSQL). */
  poolSize?: number;
  /** How long to wait for a new database connection before answering 503 (PostgreSQL). */
  connectTimeoutMs?: number;
  /** Errors on idle connections, which no request is waiting for: log them, never crash. */
  onBackgroundError?: (error: Error) => void;
  /** Where the backend reports what the metrics listener shows (src/metrics/); absent: nothing is measured. */
  metrics?: StorageMetrics;
}
