import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { checkBreaking } from '../../scripts/breaking-changes.js';
import { CLIENT_PACKAGE, releaseSpec, ReleaseRefused, setInfoVersion, type ClientPackage } from '../../scripts/release-spec.js';
import { formatSpec, parseSpec, readSpecText, SPEC_PATH, type OpenApiDocument } from '../../src/contract/spec.js';

// Everything runs on temporary copies: a releases folder and a spec of the test's making, each derived
// from openapi.yaml as it is, so that the cases hold whatever the spec says today.
const specText = readSpecText();
const current = parseSpec(specText);
const [major, minor, patch] = current.info.version.split('.').map(Number) as [number, number, number];
const nextMinor = `${major}.${minor + 1}.0`;
const lastPath = Object.keys(current.paths).at(-1)!;

function withoutLastPath(document: OpenApiDocument): OpenApiDocument {
  const copy = structuredClone(document);
  delete copy.paths[lastPath];
  return copy;
}

interface Workspace {
  specFile: string;
  releasesDir: string;
  /** Every file's text, by path, to prove that a refusal wrote nothing. */
  snapshot(): Record<string, string>;
}

/** A folder with the spec (`spec`, text) and one release (`release`, a document at the spec's version). */
function workspace(spec: string, release: OpenApiDocument): Workspace {
  const directory = mkdtempSync(join(tmpdir(), 'petstore-release-'));
  const specFile = join(directory, 'openapi.yaml');
  const releasesDir = join(directory, 'releases');
  mkdirSync(releasesDir);
  writeFileSync(specFile, spec);
  writeFileSync(join(releasesDir, `${release.info.version}.yaml`), formatSpec(release));
  const snapshot = () =>
    Object.fromEntries(
      [specFile, ...readdirSync(releasesDir).map((name) => join(releasesDir, name))].map((file) => [file, readFileSync(file, 'utf8')]),
    );
  return { specFile, releasesDir, snapshot };
}

async function refusal(
  version: string,
  { specFile, releasesDir, client }: Workspace & { client?: ClientPackage },
): Promise<ReleaseRefused> {
  const error = await releaseSpec(version, { specFile, releasesDir, ...(client ? { client } : {}) }).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ReleaseRefused);
  return error as ReleaseRefused;
}

describe('setInfoVersion', () => {
  it('changes the one line of info.version and keeps every comment and the layout', () => {
    const text = setInfoVersion(specText, '7.8.9');
    const changed = text.split('\n').flatMap((line, index) => (line === specText.split('\n')[index] ? [] : [line]));
    expect(changed).toEqual([expect.stringMatching(/^\s+version: 7\.8\.9$/)]);
    expect(text.split('\n')).toHaveLength(specText.split('\n').length);
    expect(parseSpec(text).info.version).toBe('7.8.9');
  });

  it('keeps quotes and a trailing comment, and leaves a nested `version` key alone', () => {
    const text = [
      'openapi: 3.1.0',
      'info:',
      '  title: T',
      '  x-tooling:',
      '    version: 9.9.9',
      "  version: '1.0.0' # the contract's version",
      'paths: {}',
      'components: { schemas: {} }',
      '',
    ].join('\n');
    expect(setInfoVersion(text, '1.1.0')).toBe(text.replace("version: '1.0.0' #", "version: '1.1.0' #"));
  });

  it('fails where info.version is not a line of its own', () => {
    expect(() => setInfoVersion('openapi: 3.1.0\ninfo: { title: T, version: 1.0.0 }\npaths: {}\n', '1.1.0')).toThrow(/version/);
  });
});

describe('releaseSpec (npm run release:spec)', () => {
  it(`releases a compatible addition as the next minor version, ${nextMinor}: the release file and info.version, nothing else`, async () => {
    const work = workspace(specText, withoutLastPath(current));
    const before = work.snapshot();

    const releaseFile = await releaseSpec(nextMinor, work);

    expect(releaseFile).toBe(join(work.releasesDir, `${nextMinor}.yaml`));
    const spec = readFileSync(work.specFile, 'utf8');
    expect(spec).toBe(setInfoVersion(specText, nextMinor));
    expect(readFileSync(releaseFile, 'utf8')).toBe(spec);
    expect(work.snapshot()).toEqual({ ...before, [work.specFile]: spec, [releaseFile]: spec });
    // What npm run check:breaking does next: the spec against its newest release, now this one.
    expect((await checkBreaking(releaseFile, work.specFile)).problems).toEqual([]);
  });

  it("sets the typed client package's version with it, in its manifest and the lock file, on their one line each", async () => {
    const work = workspace(specText, withoutLastPath(current));
    const client = { manifest: join(work.releasesDir, '..', 'package.json'), lockFile: join(work.releasesDir, '..', 'package-lock.json') };
    const [manifest, lock] = [CLIENT_PACKAGE.manifest, CLIENT_PACKAGE.lockFile].map((file) => readFileSync(file, 'utf8')) as [
      string,
      string,
    ];
    writeFileSync(client.manifest, manifest);
    writeFileSync(client.lockFile, lock);
    await releaseSpec(nextMinor, { ...work, client });
    expect(JSON.parse(readFileSync(client.manifest, 'utf8'))).toEqual({ ...JSON.parse(manifest), version: nextMinor });
    const locked = JSON.parse(lock) as { packages: Record<string, { version?: string }> };
    locked.packages['packages/client']!.version = nextMinor;
    expect(JSON.parse(readFileSync(client.lockFile, 'utf8'))).toEqual(locked);
    // A refusal (nothing changed since) writes none of them.
    await refusal(`${major}.${minor + 2}.0`, { ...work, client });
    expect(JSON.parse(readFileSync(client.manifest, 'utf8'))).toHaveProperty('version', nextMinor);
  });

  it.each([
    ['not semver', '1.1', /is not a version MAJOR\.MINOR\.PATCH/],
    ['a pre-release', `${nextMinor}-beta.1`, /is not a version MAJOR\.MINOR\.PATCH/],
    ['prefixed', `v${nextMinor}`, /is not a version MAJOR\.MINOR\.PATCH/],
    ['the latest release again', current.info.version, /is released already/],
    ['older than the latest release', `${major}.${minor}.${patch}`.replace(/^\d+/, String(major - 1)), /is older than the release/],
    ['a patch version for a new operation', `${major}.${minor}.${patch + 1}`, /need at least a minor version/],
    ['a new major version without a breaking change', `${major + 1}.0.0`, /must not be a new major version/],
  ])('refuses a version %s (%s) and writes nothing', async (_, version, reason) => {
    const work = workspace(specText, withoutLastPath(current));
    const before = work.snapshot();
    expect((await refusal(version, work)).problems).toContainEqual(expect.stringMatching(reason));
    expect(work.snapshot()).toEqual(before);
  });

  it('refuses a breaking change but as a new major version served under /v{major}', async () => {
    const removed = withoutLastPath(current);
    const work = workspace(formatSpec(removed), current);

    const minorRefusal = await refusal(nextMinor, work);
    expect(minorRefusal.problems).toContainEqual(expect.stringMatching(/breaking change\(s\) to .* need a new major version/));
    expect(minorRefusal.breaking.map((change) => change.path)).toContain(lastPath);
    expect((await refusal(`${major + 1}.0.0`, work)).problems).toEqual([
      `version ${major + 1}.0.0 must be served under /v${major + 1}, not /v${major}`,
    ]);

    for (const server of removed.servers!) server.url = server.url.replace(/\/v\d+$/, `/v${major + 1}`);
    writeFileSync(work.specFile, formatSpec(removed));
    await releaseSpec(`${major + 1}.0.0`, work);
    expect(parseSpec(readFileSync(join(work.releasesDir, `${major + 1}.0.0.yaml`), 'utf8')).info.version).toBe(`${major + 1}.0.0`);
  });

  it('refuses a release of an unchanged spec', async () => {
    const work = workspace(specText, current);
    expect((await refusal(nextMinor, work)).problems).toEqual([`nothing changed since ${current.info.version}`]);
  });

  it('runs from the command line: exit 0 and what it wrote, or exit 1 and why not', async () => {
    const work = workspace(specText, withoutLastPath(current));
    const run = (version: string) =>
      promisify(execFile)(process.execPath, [
        '--import',
        'tsx',
        'scripts/release-spec.ts',
        version,
        '--spec',
        work.specFile,
        '--releases',
        work.releasesDir,
      ]);

    const refused = await run(`${major + 1}.0.0`).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Not released: nothing was written.');
    const { stdout } = await run(nextMinor);
    expect(stdout).toBe(
      `Released ${work.specFile} as ${nextMinor}: ${join(work.releasesDir, `${nextMinor}.yaml`)}, and info.version is ${nextMinor}. Commit both.\n`,
    );
  });

  it('leaves npm run generate current: info.version reaches nothing in generated/', () => {
    // If it ever does, release:spec must run the generator after setting it.
    for (const file of readdirSync('generated', { recursive: true, encoding: 'utf8' })) {
      if (statSync(join('generated', file)).isDirectory()) continue;
      expect(readFileSync(join('generated', file), 'utf8'), `generated/${file}`).not.toContain(current.info.version);
    }
    // And these tests never wrote the repository's own spec.
    expect(readFileSync(SPEC_PATH, 'utf8')).toBe(specText);
  });
});
