import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { sqliteMigrations } from '../../../src/storage/sqlite/migrations.js';
import { SqliteStorage, sqlitePathFromUrl } from '../../../src/storage/sqlite/sqlite-storage.js';
import { expireAndWriteOnce, LEFT_AFTER_ONE_WRITE } from '../../support/idempotency.js';

function tempDbPath(): string {
  return join(mkdtempSync(join(tmpdir(), 'petstore-sqlite-')), 'nested', 'store.db');
}

describe('SQLite storage', () => {
  it('creates the file (and its folder), uses WAL and applies every migration once', async () => {
    const path = tempDbPath();
    await (await SqliteStorage.open(`file:${path}`)).close();
    await (await SqliteStorage.open(`file:${path}`)).close();
    const db = new Database(path, { readonly: true });
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.prepare('SELECT version FROM schema_migrations').pluck().all()).toEqual(sqliteMigrations.map((m) => m.version));
    db.close();
  });

  it('never reuses an id, even after the newest row is gone', async () => {
    const path = tempDbPath();
    const storage = await SqliteStorage.open(`file:${path}`);
    await storage.createPet({ name: 'a', categoryId: 1 });
    await storage.createPet({ name: 'b', categoryId: 1 });
    await storage.close();
    const db = new Database(path);
    db.prepare('DELETE FROM pets WHERE id = 2').run();
    db.close();
    const reopened = await SqliteStorage.open(`file:${path}`);
    expect((await reopened.createPet({ name: 'c', categoryId: 1 })).id).toBe(3);
    await reopened.close();
  });

  it('stores keys only as a hash and a display prefix', async () => {
    const path = tempDbPath();
    const storage = await SqliteStorage.open(`file:${path}`);
    const account = await storage.ensureAccount('alice');
    expect(await storage.ensureAccount('alice')).toEqual(account);
    const record = await storage.createApiKey({ accountId: account.id, hash: 'ab'.repeat(32), displayPrefix: 'psk_12345678' });
    expect(record).toMatchObject({ accountName: 'alice', displayPrefix: 'psk_12345678', revokedAt: null });
    expect(storage.findActiveApiKey('ab'.repeat(32))).toEqual({ keyId: record.id, accountId: account.id, accountName: 'alice' });
    expect(await storage.revokeApiKey(record.id)).toBe('revoked');
    expect(await storage.revokeApiKey(record.id)).toBe('already_revoked');
    expect(await storage.revokeApiKey(999)).toBe('not_found');
    expect(storage.findActiveApiKey('ab'.repeat(32))).toBeUndefined();
    expect(await storage.hasActiveApiKey()).toBe(false);
    await storage.close();
  });

  it('clears a few expired idempotency records with each new one, never one that has not expired', async () => {
    const path = tempDbPath();
    const storage = await SqliteStorage.open(`file:${path}`);
    await expireAndWriteOnce(storage);
    await storage.close();
    const db = new Database(path, { readonly: true });
    const keys = db.prepare('SELECT key FROM idempotency_keys ORDER BY expires_at, key').pluck().all() as string[];
    db.close();
    expect(keys).toHaveLength(LEFT_AFTER_ONE_WRITE);
    expect(keys.slice(-4)).toEqual(['late-0', 'late-1', 'late-2', 'new']);
  });

  it('reports the duration of each write transaction to its metrics, and of nothing else', async () => {
    const commits: number[] = [];
    const storage = await SqliteStorage.open(`file:${tempDbPath()}`, {
      metrics: { observeCommit: (_writes, seconds) => commits.push(seconds), observePool: () => expect.unreachable('SQLite has no pool') },
    });
    const account = await storage.ensureAccount('alice');
    await storage.createApiKey({ accountId: account.id, hash: 'cd'.repeat(32), displayPrefix: 'psk_cd' });
    await storage.createPet({ name: 'Rex', categoryId: 3 });
    const now = new Date();
    const respond = () => ({ status: 201, headers: {}, body: new Uint8Array() });
    const idempotency = { accountId: account.id, key: 'k', fingerprint: 'f', now, expiresAt: new Date(now.getTime() + 60_000) };
    await storage.createPetIdempotently({ name: 'Tom', categoryId: 4 }, idempotency, respond);
    // Updates and deletes are writes of the writer too, committed (synchronous=FULL) before they resolve.
    await storage.updatePet(1, { status: 'sold' });
    await storage.deletePet(2);
    expect(commits).toHaveLength(6);
    void storage.getPet(1);
    void storage.listPets({ limit: 10 });
    storage.findActiveApiKey('cd'.repeat(32));
    expect(commits).toHaveLength(6);
    for (const seconds of commits) expect(seconds).toBeGreaterThan(0);
    await storage.close();
  });

  it.each([
    ['file:data/petstore.db', 'data/petstore.db'],
    ['file:/var/lib/pets.db', '/var/lib/pets.db'],
    ['file:///var/lib/pets.db', '/var/lib/pets.db'],
    ['file::memory:', ':memory:'],
  ])('reads %s as %s', (url, path) => {
    expect(sqlitePathFromUrl(url)).toBe(path);
  });
});
