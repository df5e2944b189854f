import { hash, randomBytes } from 'node:crypto';
import type { ApiKeyStore } from '../storage/api-keys.js';

/** Recognisable in logs, configs and secret scanners. */
const API_KEY_PREFIX = 'psk_';
const SECRET_BYTES = 32; // 256 bits from the OS CSPRNG
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 8;
const API_KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{43}$`);

export interface IssuedApiKey {
  /** The key itself: shown once, never stored. */
  key: string;
  id: number;
  accountName: string;
  displayPrefix: string;
}

export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(SECRET_BYTES).toString('base64url');
}

/** Keys are stored and looked up only by this hash. A fast hash suffices: the key has 256 random bits. */
export function hashApiKey(key: string): string {
  // The one-shot crypto.hash: no Hash object per key.
  return hash('sha256', key, 'hex');
}

export function displayPrefixOf(key: string): string {
  return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

/** Cheap shape check so that garbage never reaches the database. */
export function looksLikeApiKey(candidate: string): boolean {
  return API_KEY_PATTERN.test(candidate);
}

const ACCOUNT_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

export async function issueApiKey(storage: ApiKeyStore, accountName: string): Promise<IssuedApiKey> {
  if (!ACCOUNT_NAME_PATTERN.test(accountName)) {
    throw new Error('an account name is 1 to 64 letters, digits, ".", "_" or "-", starting with a letter or digit');
  }
  const account = await storage.ensureAccount(accountName);
  const key = generateApiKey();
  const record = await storage.createApiKey({ accountId: account.id, hash: hashApiKey(key), displayPrefix: displayPrefixOf(key) });
  return { key, id: record.id, accountName: account.name, displayPrefix: record.displayPrefix };
}
