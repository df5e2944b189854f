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

/**
 * Persistence for the whole service. Handlers, auth and the CLI see only this interface, so a backend
 * (SQLite, PostgreSQL) slots in without touching them. Timestamps are RFC 3339 strings in UTC.
 */
export interface Storage {
  /** Which backend this is, for logs and health output. */
  readonly kind: StorageKind;

  createPet(pet: NewPet): Promise<Pet>;
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

/** Settings every backend understands; each uses what applies to it. */
export interface StorageOptions {
  /** Most connections one process holds (PostgreSQL). */
  poolSize?: number;
  /** How long to wait for a new database connection before answering 503 (PostgreSQL). */
  connectTimeoutMs?: number;
  /** Errors on idle connections, which no request is waiting for: log them, never crash. */
  onBackgroundError?: (error: Error) => void;
}
