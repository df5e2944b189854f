import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backends } from '../support/backends.js';
import { tempDatabaseUrl } from '../support/processes.js';

function run(args: string[]): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['scripts/contract-test-built-server.mjs', ...args]);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

// The built server, the keys CLI and the tester, each a process of its own.
describe.each(backends)('the contract tests as CI runs them [$name]', { timeout: 90_000 }, (backend) => {
  it('start the built server, make a key, run the tester, stop the server; exit with the tester', async () => {
    const junit = join(mkdtempSync(join(tmpdir(), 'contract-ci-')), 'report.xml');
    const databaseUrl = await backend.createDatabaseUrl();
    const { status, stdout } = await run([
      '--database-url',
      databaseUrl,
      '--requests',
      '30',
      '--junit',
      junit,
      '--',
      '--operation',
      'listStoreOrders,createPet',
      '--phases',
      'examples,fuzzing',
    ]);
    expect(stdout).toMatch(
      /^Contract tests of http:\/\/127\.0\.0\.1:\d+\/v1 against Pet Store Catalogue API \d+\.\d+\.\d+, with the pet store's house rules: seed \d+, at least 30 requests\n/,
    );
    // The house rules are on: the 401 first of the profile runs beside the default checks.
    expect(stdout).toContain('✓ createPet: 401 first (');
    expect(stdout).toMatch(
      /\n(\d+) scenarios: \1 passed, 0 failed, 0 skipped; 0 failures; \d+ requests in [\d.]+ s; seed \d+\ncontract tests: [\d.]+ s\n$/,
    );
    expect(status).toBe(0);
    expect(readFileSync(junit, 'utf8')).toMatch(/tests="\d+" failures="0"/);
  });
});

describe('the contract tests as CI runs them', () => {
  it('exit 2 when the tester cannot start', async () => {
    const { status, stderr } = await run(['--database-url', tempDatabaseUrl(), '--requests', '5', '--', '--checks', 'no_such_check']);
    expect(status).toBe(2);
    expect(stderr).toContain('contract-test: no check named no_such_check');
  });

  it('need a database', async () => {
    expect((await run([])).status).toBe(2);
  });
});
