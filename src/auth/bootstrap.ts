import type { Storage } from '../storage/storage.js';
import { issueApiKey, type IssuedApiKey } from './api-keys.js';

export const BOOTSTRAP_ACCOUNT = 'admin';

/**
 * A fresh store has no way in: make the first key so the operator can start. Returns undefined when
 * an active key already exists, so the key is printed once, on the first start only.
 */
export async function ensureBootstrapKey(storage: Storage): Promise<IssuedApiKey | undefined> {
  if (await storage.hasActiveApiKey()) return undefined;
  return issueApiKey(storage, BOOTSTRAP_ACCOUNT);
}
