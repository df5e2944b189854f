import { describe, expect, it } from 'vitest';
import { openPostgres } from '../../support/postgres-storage.js';

const key = (n: number) => ({ hash: String(n).repeat(64).slice(0, 64), displayPrefix: `psk_${n}` });

describe('PostgreSQL accounts and API keys', () => {
  it('stores keys only as a hash and a display prefix, finds the active ones, revokes them', async () => {
    const { storage } = await openPostgres();
    const account = await storage.ensureAccount('alice');
    expect(await storage.ensureAccount('alice')).toEqual(account);
    const record = await storage.createApiKey({ accountId: account.id, ...key(1) });
    expect(record).toMatchObject({ accountName: 'alice', displayPrefix: 'psk_1', revokedAt: null });
    expect(record.createdAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await storage.listApiKeys()).toEqual([record]);
    expect(await storage.findActiveApiKey(key(1).hash)).toEqual({ keyId: record.id, accountId: account.id, accountName: 'alice' });
    expect(await storage.hasActiveApiKey()).toBe(true);
    expect(await storage.revokeApiKey(record.id)).toBe('revoked');
    expect(await storage.revokeApiKey(record.id)).toBe('already_revoked');
    expect(await storage.revokeApiKey(999)).toBe('not_found');
    expect(await storage.findActiveApiKey(key(1).hash)).toBeUndefined();
    expect(await storage.hasActiveApiKey()).toBe(false);
  });

  it('makes the first key, with its account, only while no active key exists: once when many try at the same moment', async () => {
    const { storage } = await openPostgres({ poolSize: 4 });
    const made = await Promise.all(Array.from({ length: 6 }, (_, n) => storage.createFirstApiKey({ accountName: 'admin', ...key(n) })));
    expect(made.filter(Boolean)).toEqual([expect.objectContaining({ accountName: 'admin', revokedAt: null })]);
    expect(await storage.createFirstApiKey({ accountName: 'admin', ...key(7) })).toBeUndefined();
    expect(await storage.listApiKeys()).toHaveLength(1);
  });
});
