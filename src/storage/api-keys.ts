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

/** A key to store for an account that exists: never the key itself, only its hash and display prefix. */
export interface AccountApiKey {
  accountId: number;
  hash: string;
  displayPrefix: string;
}

/** A key to store for an account named, which is created if needed. */
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

/** Accounts and their API keys. Timestamps are RFC 3339 strings in UTC. */
export interface ApiKeyStore {
  /** Returns the account with this name, creating it first if needed. */
  ensureAccount(name: string): Promise<Account>;
  createApiKey(key: AccountApiKey): Promise<ApiKeyRecord>;
  /**
   * The principal of the unrevoked key with this SHA-256 hash, if any. A backend that can look it up
   * synchronously (SQLite) answers at once: authentication then costs every request no promise.
   */
  findActiveApiKey(hash: string): Promise<Principal | undefined> | Principal | undefined;
  listApiKeys(): Promise<ApiKeyRecord[]>;
  revokeApiKey(id: number): Promise<RevokeResult>;
  hasActiveApiKey(): Promise<boolean>;
  /**
   * Creates the account (if needed) and this key, but only while no active key exists, atomically:
   * of several processes starting together on an empty store, exactly one makes the first key.
   * Returns undefined when an active key exists.
   */
  createFirstApiKey(key: NewApiKey): Promise<ApiKeyRecord | undefined>;
}
