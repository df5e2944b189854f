import type { RateLimiterAbstract } from 'rate-limiter-flexible';
import type { components } from '../../generated/openapi.js';

export type Pet = components['schemas']['Pet'];
export type NewPet = components['schemas']['NewPet'];
export type PetStatus = components['schemas']['PetStatus'];

/** The backends there are: `file:` URLs are SQLite, `postgres:` URLs PostgreSQL. */
export type StorageKind = 'sqlite' | 'postgres';

export interface PetPageQuery {
  /** Rows to return at most. */
  limit: number;
  /** Only pets with this status. */
  status?: PetStatus;
  /** Only pets whose id is greater than this (keyset paging). */
  afterId?: number;
}

export interface Account {
  id: number;
  name: string;
  createdAt: string;
}

export interface ApiKeyRecord {
  id: number;
  accountId: number;
  accountName: string;
  /** The first characters of the key, safe to show so people can tell their keys apart. */
  displayPrefix: string;
  createdAt: string;
  revokedAt: string | null;
}

/** A key to store: never the key itself, only its hash and display prefix. */
export interface NewApiKey {
  accountName: string;
  hash: string;
  displayPrefix: string;
}

/** The identity behind a valid key; what authentication hands to the rest of the request. */
export interface Principal {
  keyId: number;
  accountId: number;
  accountName: string;
}

export type RevokeResult = 'revoked' | 'already_revoked' | 'not_found';

/** A response as the server sends it, byte for byte: what an Idempotency-Key's record keeps to send again. */
export interface RecordedResponse {
  readonly status: number;
  /** The headers the operation set (Location, ...); the server adds its own to every response. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body exactly as sent (UTF-8); empty when the response has none. */
  readonly body: Uint8Array;
}

/** The Idempotency-Key of a request, and what its record is checked against and kept for. */
export interface IdempotencyRequest {
  accountId: number;
  /** The key as the client chose it (unquoted); keys are per account. */
  key: string;
  /** Of the request body (its canonical JSON): a retry must have the same. */
  fingerprint: string;
  /** The request's instant: a record that expires at or before it counts as absent. */
  now: Date;
  /** Until when the record of a new request is kept. */
  expiresAt: Date;
}

/** What came of a request with an Idempotency-Key. */
export type IdempotentOutcome =
  /** Nothing unexpired had the key: created now, recorded with its response. */
  | { kind: 'created'; response: RecordedResponse }
  /** The key's record, with the same fingerprint: nothing was created. */
  | { kind: 'replayed'; response: RecordedResponse }
  /** The key's record has another fingerprint: nothing was created. */
  | { kind: 'key_reused' }
  /** Another request with the key is still being processed (PostgreSQL): nothing was created. */
  | { kind: 'in_progress' };

/**
 * Persistence for the whole service. Handlers, auth and the CLI see only this interface, so a backend
 * (SQLite, PostgreSQL) slots in without touching them. Timestamps are RFC 3339 strings in UTC.
 */
export interface Storage {
  /** Which backend this is, for logs and health output. */
  readonly kind: StorageKind;

  createPet(pet: NewPet): Promise<Pet>;
  /**
   * createPet under an Idempotency-Key, as one unit: the key's unexpired record is replayed (or
   * refused), or else the pet and the record with its response (`respond`, called inside the
   * transaction) are committed together. A pet is never stored without its record, nor a record
   * without its pet. Expired records count as absent and are replaced; a few others are deleted.
   */
  createPetIdempotently(pet: NewPet, idempotency: IdempotencyRequest, respond: (pet: Pet) => RecordedResponse): Promise<IdempotentOutcome>;
  getPet(id: number): Promise<Pet | undefined>;
  /** Pets ordered by id ascending. */
  listPets(query: PetPageQuery): Promise<Pet[]>;

  /** Returns the account with this name, creating it first if needed. */
  ensureAccount(name: string): Promise<Account>;
  createApiKey(key: { accountId: number; hash: string; displayPrefix: string }): Promise<ApiKeyRecord>;
  /** The principal of the unrevoked key with this SHA-256 hash, if any. */
  findActiveApiKey(hash: string): Promise<Principal | undefined>;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  revokeApiKey(id: number): Promise<RevokeResult>;
  hasActiveApiKey(): Promise<boolean>;
  /**
   * Creates the account (if needed) and this key, but only while no active key exists, atomically:
   * of several processes starting together on an empty store, exactly one makes the first key.
   * Returns undefined when an active key exists.
   */
  createFirstApiKey(key: NewApiKey): Promise<ApiKeyRecord | undefined>;

  /**
   * A rate limiter whose counts every process on this store shares (PostgreSQL: a table), or absent
   * where the store keeps none (SQLite serves one host: each process counts in memory).
   */
  sharedRateLimiter?(policy: SharedRateLimitPolicy): RateLimiterAbstract;

  /** Resolves when the database answers; rejects with StorageUnavailableError otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

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

/** How many writes a batch committed, and how long its transaction took, commit (fsync) included. */
export type CommitObserver = (writes: number, seconds: number) => void;

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

/** A limit of `points` requests per key in fixed windows of `durationSeconds`, counted under `keyPrefix`. */
export interface SharedRateLimitPolicy {
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}

/** The PostgreSQL pool's connections, as pg counts them. */
export interface PoolStats {
  /** Open connections, in use or idle. */
  total: number;
  idle: number;
  /** Requests queued for a connection. */
  waiting: number;
  /** The most the pool opens. */
  max: number;
}

/**
 * What a backend reports, each what applies to it. One object, so that whoever changes how a backend
 * writes (batching, group commit) keeps the measurements in one place.
 */
export interface StorageMetrics {
  /**
   * A batch of writes committed together (group commit: every write on SQLite, creates without a key
   * on PostgreSQL): how many, and seconds from the batch's start to its commit's return.
   */
  observeCommit: CommitObserver;
  /** The connection pool (PostgreSQL), read at every scrape. */
  observePool(read: () => PoolStats): void;
}
