import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { startThingsServer, THINGS_SPEC } from './support/things-api.js';
import { createTestApi, PET_STORE_CONFIG, PET_STORE_SPEC } from './support/pet-store.js';
import { schemaIdsSpec, SHARED_ID } from './support/semantics/schema-ids.js';

interface Outcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

const CLI = fileURLToPath(new URL('../dist/cli.js', import.meta.url));

/** Runs the built command (asynchronously, so that the in-process servers it tests keep serving). */
function contractTest(args: string[], env: Record<string, string> = {}, cwd = dirname(PET_STORE_SPEC)): Promise<Outcome> {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd,
    env: { ...process.env, CONTRACT_TEST_API_KEY: '', CONTRACT_TEST_AUTH: '', ...env },
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr })));
}

/** Runs a printed command line (the replay) in bash. */
function shell(command: string, env: Record<string, string>): Promise<Outcome> {
  const child = spawn('bash', ['-c', command.replace(/^npx openapi-contract-tester/, `'${process.execPath}' '${CLI}'`)], {
    env: { ...process.env, ...env },
  });
  let stdout = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, stdout, stderr: '' })));
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

// Each test starts the command several times, a Node process each: more than the default 30 s on a busy machine.
describe('contract-test CLI', { timeout: 120_000 }, () => {
  /** The tester on the Things API (lenient: with a fault), seed 12, 200 requests, every report. */
  async function testThings(lenient: boolean): Promise<Outcome & { junit: string; har: string; ndjson: string; spec: string }> {
    const { baseUrl, spec } = await things(lenient);
    const out = folder();
    const [junit, har, ndjson] = ['report.xml', 'exchanges.har', 'run.ndjson'].map((name) => join(out, name));
    const args = [
      '--base-url',
      baseUrl,
      '--spec',
      spec,
      '--requests',
      '200',
      '--seed',
      '12',
      '--junit',
      junit!,
      '--har',
      har!,
      '--ndjson',
      ndjson!,
    ];
    const outcome = await contractTest(args);
    return {
      ...outcome,
      spec,
      junit: readFileSync(junit!, 'utf8'),
      har: readFileSync(har!, 'utf8'),
      ndjson: readFileSync(ndjson!, 'utf8'),
    };
  }

  it('passes a deployment that keeps its spec: exit 0, every scenario, reports without failures', async () => {
    const { status, stdout, junit, har, ndjson } = await testThings(false);
    expect(stdout).toMatch(/^Contract tests of http:\/\/127\.0\.0\.1:\d+\/api against Things 0\.1\.0: seed 12, at least 200 requests\n/);
    expect(stdout).toContain('✓ listThings: coverage (');
    expect(stdout).toContain('✓ /things: methods not allowed (');
    expect(stdout).toMatch(/\n(\d+) scenarios: \1 passed, 0 failed, 0 skipped; 0 failures; \d+ requests in [\d.]+ s; seed 12\n$/);
    expect(status).toBe(0);
    expect(junit).toMatch(/<testsuites name="contract-test" tests="\d+" failures="0" errors="0" skipped="0"/);
    const requests = Number(/; (\d+) requests in/.exec(stdout)![1]);
    expect((JSON.parse(har) as { log: { entries: unknown[] } }).log.entries).toHaveLength(requests);
    const lines = ndjson
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string });
    expect(lines.filter(({ type }) => type === 'exchange')).toHaveLength(requests);
    expect(lines.at(-1)).toMatchObject({ type: 'summary', failures: 0 });
  });

  it('fails one that does not: exit 1, the failure named, its curl, a replay command that reproduces it, the failure in JUnit', async () => {
    const { status, stdout, junit, spec } = await testThings(true);
    expect(status).toBe(1);
    expect(stdout).toContain('✗ negative_data_rejection · listThings · 200\n');
    expect(stdout).toMatch(/ {4}curl -i --path-as-is -g 'http:\/\/127\.0\.0\.1:\d+\/api\/things\?limit=11'\n/);
    const replay = /\n {4}(npx openapi-contract-tester .*)\n/.exec(stdout)![1]!;
    expect(replay).toContain(`--spec '${spec}'`);
    expect(replay).toMatch(/--seed 12 --replay 'listThings: coverage' --replay-path '\d+'$/);
    const again = await shell(replay, {});
    expect(again.status).toBe(1);
    expect(again.stdout).toContain('✗ negative_data_rejection · listThings · 200\n');
    expect(again.stdout).toMatch(/\n1 scenarios: 0 passed, 1 failed/);
    expect(junit).toContain('<failure message="negative_data_rejection · listThings · 200" type="ContractViolation">');
  });

  it('prints the schema coverage, writes it as JSON, and fails a run below --min-coverage', async () => {
    // The Things spec with a 500 its correct server never answers: of 5 items, 4 are covered (80 %).
    const { server, baseUrl } = await startThingsServer();
    stops.push(() => server.close());
    const spec = join(folder(), 'things.json');
    const listThings = THINGS_SPEC.paths['/things']!['get'] as { responses: Record<string, unknown> };
    const withServerError = { ...listThings, responses: { ...listThings.responses, '500': { description: 'A fault.' } } };
    writeFileSync(spec, JSON.stringify({ ...THINGS_SPEC, paths: { '/things': { get: withServerError } } }));
    const report = join(folder(), 'coverage.json');
    const args = ['--base-url', baseUrl, '--spec', spec, '--requests', '50', '--seed', '3', '--coverage-report', report];
    const passing = await contractTest([...args, '--min-coverage', '80']);
    expect(passing.status).toBe(0);
    expect(passing.stdout).toMatch(/\n {2}listThings +yes +1\/1 +- +2\/3\n {2}total +1\/1 100\.0% +1\/1 100\.0% +- +2\/3 66\.6%\n/);
    expect(passing.stdout).toContain('  overall: 80.0% (4 of 5)\n  not covered:\n    listThings: response 500\n');
    expect(passing.stdout).not.toContain('below --min-coverage');
    const written = JSON.parse(readFileSync(report, 'utf8')) as Record<string, unknown>;
    expect(written).toMatchObject({
      minCoverage: 80,
      passed: true,
      totals: { overall: { covered: 4, total: 5, percent: 80 } },
      operations: [{ operation: 'listThings', responses: { covered: ['200 application/json', '400'], missing: ['500'] } }],
    });
    const failing = await contractTest([...args, '--min-coverage', '90']);
    expect(failing.status).toBe(1);
    expect(failing.stdout).toContain(
      '✗ Schema coverage 80.0% is below --min-coverage 90%: responses 2/3 (66.6%); the table above lists what was not covered.\n',
    );
    expect(failing.stdout).toMatch(/\n\d+ scenarios: \d+ passed, 0 failed, 0 skipped; 0 failures;/);
    const wrong = await contractTest([...args, '--min-coverage', '101']);
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toContain('a percentage from 0 to 100');
  });

  it('prints the plan with --dry-run, and sends nothing', async () => {
    const { spec } = await things();
    const outcome = await contractTest([
      '--base-url',
      'http://127.0.0.1:9/api',
      '--spec',
      spec,
      '--dry-run',
      '--exclude-checks',
      'ignored_auth',
    ]);
    expect(outcome.status).toBe(0);
    expect(outcome.stdout).toMatch(
      /^Plan of the contract tests of http:\/\/127\.0\.0\.1:9\/api against Things 0\.1\.0 \(nothing is sent\):\n/,
    );
    expect(outcome.stdout).toContain('  operations tested: listThings\n');
    expect(outcome.stdout).not.toContain('ignored_auth');
    expect(outcome.stdout).toMatch(/ {4}listThings: valid requests \[fuzzing\]: \d+ generated cases\n/);
    expect(outcome.stdout).toMatch(/ {4}listThings: coverage \[coverage\]: \d+ fixed cases\n/);
  });

  it('tests the pet store with its house rules (--config), the key from CONTRACT_TEST_API_KEY, never printed, a new seed each run', async () => {
    const { origin, key } = await createTestApi();
    const args = [
      '--config',
      PET_STORE_CONFIG,
      '--base-url',
      `${origin}/v1`,
      '--requests',
      '20',
      '--operation',
      'listStoreOrders',
      '--phases',
      'fuzzing',
    ];
    const first = await contractTest(args, { CONTRACT_TEST_API_KEY: key });
    const second = await contractTest(args, { CONTRACT_TEST_API_KEY: key });
    expect(first.status).toBe(0);
    expect(first.stdout).toMatch(
      /against Pet Store Catalogue API \d+\.\d+\.\d+, with the pet store's house rules: seed \d+, at least 20 requests\n/,
    );
    expect(first.stdout).toContain('✓ listStoreOrders: 401 first (');
    expect(first.stdout).not.toContain(key);
    const seed = (output: string) => /seed (\d+)/.exec(output)![1];
    expect(seed(first.stdout)).not.toBe(seed(second.stdout));
  });

  it('says what stops it from starting, with exit 2', async () => {
    const { origin } = await createTestApi();
    const refused = await contractTest(['--base-url', `${origin}/v1`, '--api-key', 'psk_nope', '--requests', '5']);
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/^contract-test: .* refuses the credentials \(401 to listPets\)/);
    const unknown = await contractTest(['--base-url', `${origin}/v1`, '--operation', 'deletePets']);
    expect(unknown.status).toBe(2);
    expect(unknown.stderr).toContain('no operation deletePets in the spec');
    const scheme = await contractTest(['--base-url', `${origin}/v1`, '--security', 'oauth=x']);
    expect(scheme.stderr).toBe("contract-test: --security oauth: the spec's security schemes are bearerAuth\n");
    const usage = await contractTest(['--base-url', 'ftp://x', '--requests', '0']);
    expect(usage.status).toBe(2);
    expect(usage.stderr).toMatch(/--base-url.*an http\(s\) URL/);
    const nowhere = folder();
    const specless = await contractTest(['--base-url', `${origin}/v1`], {}, nowhere);
    expect(specless.status).toBe(2);
    expect(specless.stderr).toBe(`contract-test: no --spec given and no openapi.yaml in ${nowhere}\n`);
    const config = join(nowhere, 'bad.json');
    writeFileSync(config, JSON.stringify({ checks: { unknown_check: true } }));
    const badConfig = await contractTest(['--base-url', `${origin}/v1`, '--config', config]);
    expect(badConfig.status).toBe(2);
    expect(badConfig.stderr).toMatch(/^contract-test: .*bad\.json: checks\.unknown_check: no such check/);
    expect(existsSync(join(nowhere, 'openapi.yaml'))).toBe(false);
    const ids = join(nowhere, 'ids.json');
    writeFileSync(ids, JSON.stringify(schemaIdsSpec('schemas')));
    // One schema the validator will not read ends no run: a warning names it, the rest is planned.
    const twoIds = await contractTest(['--base-url', 'http://127.0.0.1:9', '--spec', ids, '--dry-run']);
    expect(twoIds.status).toBe(0);
    expect(twoIds.stdout).toContain(`warning: two of its schemas have the $id "${SHARED_ID}"`);
    // Reading and parsing the spec count against --max-time (from the process's start): a budget
    // they spend refuses the run, naming the step, rather than planning past it.
    const spent = await contractTest(['--base-url', 'http://127.0.0.1:9', '--spec', PET_STORE_SPEC, '--dry-run', '--max-time', '0.001']);
    expect(spent.status).toBe(2);
    expect(spent.stderr).toBe('contract-test: --max-time 0.001 s was reached while reading the spec\n');
    expect(spent.stdout).toBe('');
    const missing = await contractTest([]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain("required option '--base-url <url>' not specified");
  });
});
