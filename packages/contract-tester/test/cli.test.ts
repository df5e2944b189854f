import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startThingsServer, THINGS_SPEC } from './support/things-api.js';
import { createTestApi, PET_STORE_SPEC } from './support/pet-store.js';

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/**
 * Runs the built command in the pet store's folder (where it finds openapi.yaml without --spec);
 * asynchronously, so that the in-process servers it tests keep serving.
 */
function contractTest(args: string[], env: Record<string, string> = {}, cwd = dirname(PET_STORE_SPEC)): Promise<Outcome> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    env: { ...process.env, PETSTORE_API_KEY: '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

const folder = () => mkdtempSync(join(tmpdir(), 'contract-test-'));
const stops: Array<() => void> = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

async function things(lenient = false): Promise<{ baseUrl: string; spec: string }> {
  const { server, baseUrl } = await startThingsServer(lenient);
  stops.push(() => server.close());
  const spec = join(folder(), 'things.json');
  writeFileSync(spec, JSON.stringify(THINGS_SPEC));
  return { baseUrl, spec };
}

describe('contract-test CLI', () => {
  /** The tester on the Things API (lenient: with a fault), seed 12, 200 requests, a JUnit report. */
  async function testThings(lenient: boolean): Promise<Outcome & { junit: string }> {
    const { baseUrl, spec } = await things(lenient);
    const junit = join(folder(), 'report.xml');
    const args = ['--base-url', baseUrl, '--spec', spec, '--requests', '200', '--seed', '12', '--junit', junit];
    const outcome = await contractTest(args);
    return { ...outcome, junit: readFileSync(junit, 'utf8') };
  }

  it('passes a deployment that keeps its spec: exit 0, every check, a JUnit report without failures', async () => {
    const { status, stdout, junit } = await testThings(false);
    expect(stdout).toMatch(/^Contract tests of http:\/\/127\.0\.0\.1:\d+\/api against Things 0\.1\.0: seed 12, at least 200 requests\n/);
    expect(stdout).toContain('✓ listThings: non-canonical number (');
    expect(stdout).toContain('✓ /things: methods not allowed (');
    expect(stdout).toMatch(/\n7 checks: 7 passed, 0 failed, 0 skipped; \d+ requests in [\d.]+ s; seed 12\n$/);
    expect(status).toBe(0);
    expect(junit).toContain('<testsuites name="contract-test" tests="7" failures="0" errors="0" skipped="0"');
  });

  it('fails one that does not: exit 1, the shrunk case as curl, the replay command, the failure in JUnit', async () => {
    const { status, stdout, junit } = await testThings(true);
    expect(status).toBe(1);
    expect(stdout).toContain('✗ listThings: non-canonical number');
    expect(stdout).toMatch(/ {4}curl -i --path-as-is -g 'http:\/\/127\.0\.0\.1:\d+\/api\/things\?limit=[^']+'\n/);
    expect(stdout).toMatch(/--seed 12 --check 'listThings: non-canonical number' --path '[\d:]+'\n/);
    expect(junit).toMatch(
      /<testcase classname="listThings" name="listThings: non-canonical number" time="[\d.]+">\n\s+<failure message="a request that breaks the contract must be refused with a 4xx, but got 200 \[&quot;a&quot;\]"/,
    );
  });

  it('tests the pet store by default, with the key from PETSTORE_API_KEY, and a new seed each run, printed', async () => {
    const { origin, key } = await createTestApi();
    const args = ['--base-url', `${origin}/v1`, '--requests', '20', '--check', 'listStoreOrders: valid requests'];
    const first = await contractTest(args, { PETSTORE_API_KEY: key });
    const second = await contractTest(args, { PETSTORE_API_KEY: key });
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(
      /against Pet Store Catalogue API \d+\.\d+\.\d+: seed \d+, at least 20 requests\n✓ listStoreOrders: valid requests/,
    );
    expect(first.stdout).not.toContain(key);
    const seed = (output: string) => /seed (\d+)/.exec(output)![1];
    expect(seed(first.stdout)).not.toBe(seed(second.stdout));
  });

  it('says what stops it from starting, with exit 2', async () => {
    const { origin } = await createTestApi();
    const refused = await contractTest(['--base-url', `${origin}/v1`, '--api-key', 'psk_nope', '--requests', '5']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^contract-test: .* refuses the API key \(401 to listPets\)/);
    const unknown = await contractTest(['--base-url', `${origin}/v1`, '--operation', 'deletePet']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no operation deletePet in the spec');
    const usage = await contractTest(['--base-url', 'ftp://x', '--requests', '0']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/--base-url.*an http\(s\) URL/);
    const nowhere = folder();
    const specless = await contractTest(['--base-url', `${origin}/v1`], {}, nowhere);
    expect(specless.status).toBe(2);
    expect(specless.stderr).toBe(`contract-test: no --spec given and no openapi.yaml in ${nowhere}\n`);
    const missing = await contractTest([]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("required option '--base-url <url>' not specified");
  });
});
