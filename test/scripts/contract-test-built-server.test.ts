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

describe.each(backends)('the contract tests as CI runs them [$name]', (backend) => {
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
      '--check',
      'listStoreOrders: valid requests',
      'createPet: valid requests',
    ]);
    expect(stdout).toMatch(
      /^Contract tests of http:\/\/127\.0\.0\.1:\d+\/v1 against Pet Store Catalogue API \d+\.\d+\.\d+: seed \d+, at least 30 requests\n/,
    );
    expect(stdout).toMatch(/\n2 checks: 2 passed, 0 failed, 0 skipped; \d+ requests in [\d.]+ s; seed \d+\n$/);
    expect(status).toBe(0);
    expect(readFileSync(junit, 'utf8')).toContain('tests="2" failures="0"');
  });
});

describe('the contract tests as CI runs them', () => {
  it('exit 2 when the tester cannot start', async () => {
    const { status, stderr } = await run(['--database-url', tempDatabaseUrl(), '--requests', '5', '--', '--check', 'no such check']);
    expect(status).toBe(2);
    expect(stderr).toContain('contract-test: no check named no such check');
  });

  it('need a database', async () => {
    expect((await run([])).status).toBe(2);
  });
});
