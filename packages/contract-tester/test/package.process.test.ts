import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PET_STORE_CONFIG, runKeys, startServer, tempDatabaseUrl, type RunningServer } from './support/pet-store.js';

const run = promisify(execFile);
const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  dependencies: Record<string, string>;
};

/** `npx openapi-contract-tester ARGS` in the project; its exit status with what it printed. */
async function npx(project: string, args: string[], env: Record<string, string> = {}) {
  return run('npx', ['--no-install', 'openapi-contract-tester', ...args], { cwd: project, env: { ...process.env, ...env } }).then(
    ({ stdout, stderr }) => ({ status: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => ({ status: error.code, stdout: error.stdout, stderr: error.stderr }),
  );
}

// npm pack, npm install and npx, each a process of its own: more than the default 30 s on a busy machine.
describe('the packed tester installed into an empty project', { timeout: 120_000 }, () => {
  let project: string;
  let files: string[];

  beforeAll(async () => {
    // dist/ as the suite's global setup built it: --ignore-scripts skips the prepack build, which
    // would rewrite it under the other test files that run it meanwhile.
    const out = mkdtempSync(join(tmpdir(), 'contract-tester-pack-'));
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--pack-destination', out, '--json'], { cwd: PACKAGE });
    const [packed] = JSON.parse(stdout) as Array<{ filename: string; files: Array<{ path: string }> }>;
    files = packed!.files.map(({ path }) => path).sort();
    const tarball = join(out, packed!.filename);
    project = mkdtempSync(join(tmpdir(), 'contract-tester-consumer-'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
    // Its dependencies come from the registry (or npm's cache), as for anyone who installs it.
    await run('npm', ['install', tarball, '--prefer-offline', '--no-audit', '--no-fund'], { cwd: project });
  }, 120_000);

  it('holds its bin, its README and its manifest; the bin imports only its dependencies and Node', () => {
    expect(files).toEqual(['README.md', 'dist/cli.js', 'package.json']);
    const bin = readFileSync(join(project, 'node_modules', manifest.name, 'dist', 'cli.js'), 'utf8');
    const specifiers = new Set([...bin.matchAll(/^import .*? from "([^"]+)";$/gm)].map((match) => match[1]!));
    expect(specifiers.size).toBeGreaterThan(0);
    const packageOf = (specifier: string) => specifier.split('/')[0]!;
    expect(
      [...specifiers].filter((specifier) => !specifier.startsWith('node:') && !(packageOf(specifier) in manifest.dependencies)),
    ).toEqual([]);
  });

  it('installs with its dependencies', () => {
    const installed = JSON.parse(readFileSync(join(project, 'node_modules', manifest.name, 'package.json'), 'utf8')) as typeof manifest;
    expect(installed).toMatchObject({ name: 'openapi-contract-tester', bin: { 'openapi-contract-tester': 'dist/cli.js' } });
    for (const name of Object.keys(manifest.dependencies)) {
      expect(() => readFileSync(join(project, 'node_modules', name, 'package.json')), name).not.toThrow();
    }
  });

  it('runs as npx openapi-contract-tester', async () => {
    const { status, stdout } = await npx(project, ['--help']);
    expect(status).toBe(0);
    expect(stdout).toMatch(/^Usage: openapi-contract-tester \[options\]\n/);
    expect(stdout).toContain('--base-url <url>');
  });

  describe('against the built pet store server', () => {
    let server: RunningServer;
    let apiKey: string;

    beforeAll(async () => {
      const env = { DATABASE_URL: tempDatabaseUrl() };
      apiKey = runKeys(['create', '--account', 'packed-tester'], env).stdout.trim().split('\n').at(-1)!;
      server = await startServer(env);
    });

    afterAll(async () => {
      if (server) expect(await server.stop()).toBe(0);
    });

    it("passes a short run with the pet store's house rules, and stops with exit 2 on a key the server refuses", async () => {
      const args = ['--base-url', server.baseUrl, '--config', PET_STORE_CONFIG, '--requests', '20', '--seed', '3'];
      const passed = await npx(project, [...args, '--operation', 'listStoreOrders,createPet', '--phases', 'examples,fuzzing'], {
        CONTRACT_TEST_API_KEY: apiKey,
      });
      expect(passed.stdout).toMatch(/: seed 3, at least 20 requests\n/);
      expect(passed.stdout).toMatch(/\n(\d+) scenarios: \1 passed, 0 failed, 0 skipped; 0 failures; \d+ requests in [\d.]+ s; seed 3\n$/);
      expect(passed.status).toBe(0);
      // A key the server does not know: every operation then answers 401, which the tester says
      // stops it from starting.
      const refused = await npx(project, args, { CONTRACT_TEST_API_KEY: 'psk_unknown' });
      expect(refused.status).toBe(2);
      expect(refused.stderr).toMatch(/refuses the credentials \(401 to listPets\)/);
    });
  });
});
