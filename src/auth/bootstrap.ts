import type { ApiKeyStore } from '../storage/api-keys.js';
import { displayPrefixOf, generateApiKey, hashApiKey, type IssuedApiKey } from './api-keys.js';

const BOOTSTRAP_ACCOUNT = 'admin';

/**
 * A fresh store has no way in: make the first key so the operator can start. Returns undefined when
 * an active key already exists, so the key is printed once, on the first start only, and by one
 * process only when several start together (the storage makes the check and the key atomically).
 */
export async function ensureBootstrapKey(storage: ApiKeyStore): Promise<IssuedApiKey | undefined> {
  if (await storage.hasActiveApiKey()) return undefined;
  const key = generateApiKey();
  const record = await storage.createFirstApiKey({
    accountName: BOOTSTRAP_ACCOUNT,
    hash: hashApiKey(key),
    displayPrefix: displayPrefixOf(key),
  });
  return record && { key, id: record.id, accountName: record.accountName, displayPrefix: record.displayPrefix };
}
