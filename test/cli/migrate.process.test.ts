import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { allBackends } from '../support/backends.js';
import { runKeys } from '../support/processes.js';

describe.each(allBackends)('migrate CLI [$name]', (backend) => {
  it('migrates a new store with npm run migrate', async () => {
    const env = { DATABASE_URL: await backend.createDatabaseUrl() };
    const stdout = execFileSync('npm', ['run', '--silent', 'migrate'], { env: { ...process.env, ...env }, encoding: 'utf8' });
    expect(stdout).toBe(`The ${backend.name} store is migrated to the latest schema.\n`);
    expect(runKeys(['list'], env).stdout).toBe('No keys yet.\n');
  });
});
