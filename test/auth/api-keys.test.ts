import { describe, expect, it } from 'vitest';
import { displayPrefixOf, generateApiKey, hashApiKey, issueApiKey, looksLikeApiKey } from '../../src/auth/api-keys.js';
import { SqliteStorage } from '../../src/storage/sqlite/sqlite-storage.js';

describe('API keys', () => {
  it('carry 256 random bits behind a recognisable prefix', () => {
    const keys = new Set(Array.from({ length: 1000 }, generateApiKey));
    expect(keys.size).toBe(1000);
    for (const key of keys) {
      expect(key).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(key.slice(4), 'base64url')).toHaveLength(32);
      expect(looksLikeApiKey(key)).toBe(true);
    }
  });

  it('are stored as a SHA-256 hash and a short display prefix, never in full', async () => {
    const storage = await SqliteStorage.open('file::memory:');
    const issued = await issueApiKey(storage, 'alice');
    expect(issued.displayPrefix).toBe(displayPrefixOf(issued.key));
    expect(issued.displayPrefix).toHaveLength(12);
    expect(hashApiKey(issued.key)).toMatch(/^[0-9a-f]{64}$/);
    expect(storage.findActiveApiKey(hashApiKey(issued.key))).toMatchObject({ accountName: 'alice' });
    const listed = JSON.stringify(await storage.listApiKeys());
    expect(listed).not.toContain(issued.key);
    expect(listed).not.toContain(issued.key.slice(12));
  });

  it('refuse account names that are empty or odd', async () => {
    const storage = await SqliteStorage.open('file::memory:');
    for (const name of ['', ' ', 'a b', '-x', 'x'.repeat(65)]) {
      await expect(issueApiKey(storage, name)).rejects.toThrow(/account name/);
    }
  });
});
