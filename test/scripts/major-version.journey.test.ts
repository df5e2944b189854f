import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, parseDocument, Scalar } from 'yaml';
import { copyProject, removeProjectCopy } from '../../scripts/project-copy.js';
import { CLIENT_PACKAGE, releaseSpec, ReleaseRefused } from '../../scripts/release-spec.js';
import { latestReleaseOf } from '../../src/contract/versions.js';
import { PACKAGE_ROOT } from '../../src/package-root.js';
import { startServer, tempDatabaseUrl, type RunningServer } from '../support/processes.js';

/**
 * docs/versioning.md's worked example, "Cutting 2.0.0", followed step by step on a copy of the
 * project: listPets' query parameter `status` renamed `state` as 2.0.0 under /v2, the last 1.x
 * release served beside it under /v1. The copy is built and started as a user starts it, and the
 * contract tester holds /v1 to the 1.x document and /v2 to 2.0.0's. This repository stays on 1.x.
 */

const DOC = readFileSync(join(PACKAGE_ROOT, 'docs', 'versioning.md'), 'utf8');
const DAY_MS = 86_400_000;

/** The fenced code blocks of docs/versioning.md in the given language that contain `marker`. */
function documented(language: string, marker: string): string {
  const blocks = [...DOC.matchAll(new RegExp(`^( *)\`\`\`${language}\\n([\\s\\S]*?)^\\1\`\`\`$`, 'gm'))]
    .map(([, indent, body]) => body!.replace(new RegExp(`^${indent}`, 'gm'), ''))
    .filter((body) => body.includes(marker));
  expect(blocks, `docs/versioning.md: one ${language} block with ${marker}`).toHaveLength(1);
  return blocks[0]!;
}

/** Replaces `from` (which must be there) in a file of the copy: a step of the doc done by hand. */
function edit(copy: string, file: string, from: string | RegExp, to: string): void {
  const path = join(copy, file);
  const text = readFileSync(path, 'utf8');
  expect(text, `${file} has ${String(from)}`).toMatch(from);
  writeFileSync(path, text.replace(from, to));
}

/** A UTC midnight `days` from today, as the spec writes instants. */
function dayFromToday(days: number): string {
  return new Date(Math.floor(Date.now() / DAY_MS) * DAY_MS + days * DAY_MS).toISOString().replace('.000Z', 'Z');
}

const TESTER = join(PACKAGE_ROOT, 'packages', 'contract-tester', 'dist', 'cli.js');

/** The contract tester's CLI with the house rules (as `npm run contract-test`), its status and output. */
function contractTest(args: string[], apiKey: string): Promise<{ status: number | null; output: string }> {
  const child = spawn(
    process.execPath,
    [TESTER, '--config', join(PACKAGE_ROOT, 'contract-test.config.json'), '--requests', '250', ...args],
    {
      env: { ...process.env, NO_COLOR: '1', CONTRACT_TEST_API_KEY: apiKey },
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => child.once('close', (status) => resolve({ status, output })));
}

// Two generator runs, a type check, a build and three contract-test runs: about a minute on a quiet
// 2-core machine, several on a busy one.
describe("docs/versioning.md's worked example: 2.0.0 under /v2 beside /v1 (on a copy of the project)", { timeout: 300_000 }, () => {
  let copy: string;
  let databaseUrl: string;
  let server: RunningServer | undefined;
  let origin: string;
  let previousRelease: string;
  const deprecatedAt = dayFromToday(-1);
  const sunsetAt = dayFromToday(200);
  const run = (args: string[], env: Record<string, string> = {}) =>
    spawnSync(process.execPath, args, {
      cwd: copy,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', ...env },
      timeout: 240_000,
      killSignal: 'SIGKILL',
    });
  // What `npm run release:spec` releases in the copy: its spec, its releases and its client's version.
  const project = () => ({
    specFile: join(copy, 'openapi.yaml'),
    releasesDir: join(copy, 'spec', 'releases'),
    client: { manifest: join(copy, CLIENT_PACKAGE.manifest), lockFile: join(copy, CLIENT_PACKAGE.lockFile) },
  });
  const key = (account: string) => {
    const made = run(['dist/cli/keys.js', 'create', '--account', account], { DATABASE_URL: databaseUrl });
    expect(made.status, made.stderr).toBe(0);
    return made.stdout.trim().split('\n').at(-1)!;
  };

  beforeAll(() => {
    copy = copyProject();
    databaseUrl = tempDatabaseUrl();
  });
  afterAll(async () => {
    await server?.stop();
    removeProjectCopy(copy);
  });

  it('1. releases the last 1.x when openapi.yaml has unreleased changes', async () => {
    const { specFile, releasesDir } = project();
    const latest = parse(readFileSync(latestReleaseOf(releasesDir, 1)!, 'utf8')) as { info: { version: string } };
    const [major, minor] = latest.info.version.split('.').map(Number) as [number, number];
    await releaseSpec(`${major}.${minor + 1}.0`, project()).catch((error: unknown) => {
      // Nothing to release: the latest 1.x is openapi.yaml already.
      if (!(error instanceof ReleaseRefused) || !error.problems.every((problem) => problem.startsWith('nothing changed'))) throw error;
    });
    previousRelease = latestReleaseOf(releasesDir, 1)!;
    expect(readFileSync(previousRelease, 'utf8')).toBe(readFileSync(specFile, 'utf8'));
  });

  it('2-3. openapi.yaml renames the parameter, moves to /v2 and declares /v1 its predecessor; npm run generate types both versions', () => {
    const spec = parseDocument(readFileSync(join(copy, 'openapi.yaml'), 'utf8'));
    const info = (parse(documented('yaml', 'x-predecessor:')) as { info: { version: string; 'x-predecessor': object } }).info;
    expect(info.version).toBe('2.0.0');
    expect(Object.keys(info['x-predecessor'])).toEqual(['deprecatedAt', 'sunsetAt']);
    spec.setIn(['info', 'version'], info.version);
    // The doc's shape, with dates around today: its own would put the test past the sunset one day.
    const instant = (value: string) => Object.assign(new Scalar(value), { type: Scalar.QUOTE_SINGLE });
    spec.setIn(['info', 'x-predecessor'], spec.createNode({ deprecatedAt: instant(deprecatedAt), sunsetAt: instant(sunsetAt) }));
    spec.setIn(['components', 'parameters', 'StatusFilter', 'name'], 'state');
    writeFileSync(join(copy, 'openapi.yaml'), spec.toString().replaceAll('url: https://{host}/v1\n', 'url: https://{host}/v2\n'));
    const generated = run(['node_modules/tsx/dist/cli.mjs', 'scripts/generate.ts']);
    expect(generated.status, generated.stderr).toBe(0);
    expect(generated.stderr).toContain('generated/v1/openapi.d.ts');
    expect(readFileSync(join(copy, 'generated', 'predecessor.ts'), 'utf8')).toContain("from './v1/openapi.js'");
  });

  it('4. with the handler, the adapter of docs/versioning.md and the client helper changed, the server and client type-check', () => {
    edit(copy, 'src/handlers/list-pets.ts', 'query: { limit, status, cursor }', 'query: { limit, state, cursor }');
    edit(copy, 'src/handlers/list-pets.ts', 'limit: limit + 1, status, afterId', 'limit: limit + 1, status: state, afterId');
    edit(copy, 'src/handlers/list-pets.ts', 'nextPageLink(path, { limit, status }', 'nextPageLink(path, { limit, state }');
    edit(copy, 'src/handlers/predecessor.ts', /^export const PREDECESSOR_ADAPTERS.*= \{\};\n/m, documented('ts', 'PREDECESSOR_ADAPTERS'));
    edit(copy, 'packages/client/src/list-all-pets.ts', /\bstatus\?: PetStatus;/, 'state?: PetStatus;');
    edit(copy, 'packages/client/src/list-all-pets.ts', 'const { status, pageSize, signal }', 'const { state, pageSize, signal }');
    edit(copy, 'packages/client/src/list-all-pets.ts', 'query: { status, limit: pageSize }', 'query: { state, limit: pageSize }');
    // The code only: the tests of the renamed parameter are the maintainer's to change.
    writeFileSync(
      join(copy, 'tsconfig.code.json'),
      JSON.stringify({ extends: './tsconfig.json', include: ['src', 'generated', 'packages/client/src'] }),
    );
    const typecheck = run(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.code.json']);
    expect(typecheck.stdout).toBe('');
    expect(typecheck.status).toBe(0);
  });

  it('6. npm run release:spec -- 2.0.0 accepts the break, the base path and the notice', async () => {
    const { specFile, releasesDir, client } = project();
    await releaseSpec('2.0.0', project());
    expect(readFileSync(join(releasesDir, '2.0.0.yaml'), 'utf8')).toBe(readFileSync(specFile, 'utf8'));
    expect(JSON.parse(readFileSync(client.manifest, 'utf8'))).toHaveProperty('version', '2.0.0');
  });

  it('the built server serves /v2 from openapi.yaml and /v1 from the last 1.x release, /v1 marked deprecated', async () => {
    const build = run(['scripts/build-server.mjs']);
    expect(build.status, build.stderr).toBe(0);
    const apiKey = key('journey');
    server = await startServer(
      { DATABASE_URL: databaseUrl, RATE_LIMIT_PER_MINUTE: '10000000', FAILED_AUTH_PER_MINUTE: '1000000' },
      { cwd: copy },
    );
    expect(server.baseUrl).toMatch(/\/v2$/);
    origin = new URL(server.baseUrl).origin;
    const headers = { Authorization: `Bearer ${apiKey}` };
    const v1 = await fetch(`${origin}/v1/pets?status=sold`, { headers });
    expect(v1.status).toBe(200);
    expect(v1.headers.get('deprecation')).toBe(`@${Date.parse(deprecatedAt) / 1000}`);
    expect(v1.headers.get('sunset')).toBe(new Date(sunsetAt).toUTCString());
    expect(v1.headers.get('link')).toContain('</v2/docs>; rel="successor-version"');
    const v2 = await fetch(`${origin}/v2/pets?state=sold`, { headers });
    expect(v2.status).toBe(200);
    expect(v2.headers.get('deprecation')).toBeNull();
    expect(v2.headers.get('sunset')).toBeNull();
    expect((await fetch(`${origin}/v2/pets?status=sold`, { headers })).status).toBe(400);
  });

  // Each run with a key of its own: idempotent creates are remembered per account, so one run's
  // replayed 201 would name a pet another run has deleted.
  it.each([
    ['/v1', 'the last 1.x release', () => previousRelease],
    ['/v2', 'openapi.yaml (2.0.0)', () => join(copy, 'openapi.yaml')],
  ])('the contract tester passes %s held to %s', async (base, _name, spec) => {
    const { status, output } = await contractTest(['--base-url', `${origin}${base}`, '--spec', spec()], key(`tester${base.slice(1)}`));
    expect(output).toMatch(/\n(\d+) scenarios: \1 passed, 0 failed, 0 skipped; 0 failures; /);
    expect(status, output).toBe(0);
  });

  it('the contract tester fails /v2 held to the 1.x document: it tells the versions apart', async () => {
    const { status, output } = await contractTest(
      ['--base-url', `${origin}/v2`, '--spec', previousRelease, '--operation', 'listPets', '--phases', 'examples'],
      key('tester-mismatch'),
    );
    expect(output).toMatch(/✗ positive_data_acceptance · listPets · 400/);
    expect(status).toBe(1);
  });
});
