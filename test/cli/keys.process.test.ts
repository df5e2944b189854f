import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { hashApiKey } from '../../src/auth/api-keys.js';
import { openStorage } from '../../src/storage/open-storage.js';
import { sqlitePathFromUrl } from '../../src/storage/sqlite/sqlite-storage.js';
import { backends } from '../support/backends.js';
import { freePort } from '../support/postgres-server.js';
import { runKeys, tempDatabaseUrl } from '../support/processes.js';

describe('keys CLI on a new SQLite store', () => {
  it('creates the store when missing and prints the new key as the last line of stdout (npm run --silent keys)', () => {
    const DATABASE_URL = tempDatabaseUrl();
    expect(existsSync(sqlitePathFromUrl(DATABASE_URL))).toBe(false);
    const stdout = execFileSync('npm', ['run', '--silent', 'keys', '--', 'create', '--account', 'alice'], {
      env: { ...process.env, DATABASE_URL },
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const key = stdout.trimEnd().split('\n').at(-1)!;
    expect(key).toMatch(/^psk_[A-Za-z0-9_-]{43}$/);
    expect(existsSync(sqlitePathFromUrl(DATABASE_URL))).toBe(true);
  });
});

describe.each(backends)('keys CLI [$name]', (backend) => {
  it('lists accounts, key ids, prefixes and times, and never a key', async () => {
    const env = { DATABASE_URL: await backend.createDatabaseUrl() };
    const alice = runKeys(['create', '--account', 'alice'], env).stdout.trim();
    const bob = runKeys(['create', '--account', 'bob'], env).stdout.trim();
    expect(runKeys(['revoke', '1'], env)).toMatchObject({ status: 0, stdout: 'Revoked key 1.\n' });

    const list = runKeys(['list'], env);
    expect(list.status).toBe(0);
    const [header, first, second] = list.stdout.trimEnd().split('\n');
    expect(header).toMatch(/^ACCOUNT\s+KEY ID\s+PREFIX\s+CREATED\s+REVOKED$/);
    expect(first).toMatch(new RegExp(`^alice\\s+1\\s+${alice.slice(0, 12)}…\\s+\\d{4}-\\d\\d-\\d\\dT\\S+Z\\s+\\d{4}-\\d\\d-\\d\\dT\\S+Z$`));
    expect(second).toMatch(new RegExp(`^bob\\s+2\\s+${bob.slice(0, 12)}…\\s+\\S+Z\\s+-$`));
    for (const key of [alice, bob]) expect(list.stdout + list.stderr).not.toContain(key.slice(12));

    const json = JSON.parse(runKeys(['list', '--json'], env).stdout) as Array<{ id: number; revokedAt: string | null }>;
    expect(json.map(({ id, revokedAt }) => [id, revokedAt === null])).toEqual([
      [1, false],
      [2, true],
    ]);
  });

  it('revokes at once: the key no longer authenticates', async () => {
    const env = { DATABASE_URL: await backend.createDatabaseUrl() };
    const key = runKeys(['create', '--account', 'alice'], env).stdout.trim();
    const storage = await openStorage(env.DATABASE_URL);
    expect(await storage.findActiveApiKey(hashApiKey(key))).toMatchObject({ accountName: 'alice' });
    runKeys(['revoke', '1'], env);
    expect(await storage.findActiveApiKey(hashApiKey(key))).toBeUndefined();
    await storage.close();
  });

  it.each([
    [['revoke', '99'], 1, 'No key with id 99.'],
    [['revoke', 'abc'], 1, 'a key id is a positive integer'],
    [['create'], 1, "required option '--account <name>' not specified"],
    [['create', '--account', 'has space'], 1, 'an account name is 1 to 64 letters'],
    [['bogus'], 1, "unknown command 'bogus'"],
  ])('answers %j with exit %i and a clear message', async (args, status, message) => {
    const result = runKeys(args, { DATABASE_URL: await backend.createDatabaseUrl() });
    expect(result.status).toBe(status);
    expect(result.stderr).toContain(message);
    expect(result.stdout).toBe('');
  });

  it('says already revoked on a second revoke', async () => {
    const env = { DATABASE_URL: await backend.createDatabaseUrl() };
    runKeys(['create', '--account', 'alice'], env);
    runKeys(['revoke', '1'], env);
    expect(runKeys(['revoke', '1'], env)).toMatchObject({ status: 0, stdout: 'Key 1 was already revoked.\n' });
  });
});

describe('keys CLI and migrate against an unreachable database', () => {
  it('fail with a clear message that does not echo the password', async () => {
    const env = { DATABASE_URL: `postgres://user:hunter2@127.0.0.1:${await freePort()}/none`, DATABASE_CONNECT_TIMEOUT_MS: '500' };
    const keys = runKeys(['list'], env);
    expect(keys).toMatchObject({ status: 1, stdout: '', stderr: 'keys: the database is unavailable\n' });
    const migrate = spawnSync(process.execPath, ['dist/cli/migrate.js'], { env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(migrate).toMatchObject({ status: 1, stderr: 'migrate: the database is unavailable\n' });
  });

  it('refuse an unknown DATABASE_URL scheme', () => {
    const result = runKeys(['list'], { DATABASE_URL: 'mysql://user:hunter2@localhost/db' });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('DATABASE_URL scheme "mysql:" is not supported');
    expect(result.stderr).not.toContain('hunter2');
  });
});
