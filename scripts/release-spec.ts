// `npm run release:spec -- X.Y.Z [--spec FILE] [--releases DIR]`: releases openapi.yaml (or FILE) as
// version X.Y.Z: sets its info.version to X.Y.Z and copies it to spec/releases/X.Y.Z.yaml (or into DIR),
// after checking X.Y.Z against the versioning policy (docs/versioning.md) and the latest release there. A refused
// version changes no file. info.version reaches nothing in generated/ (openapi-typescript leaves `info`
// out, and scripts/generate.ts reads none of it; test/scripts/release-spec.process.test.ts checks), so
// `npm run generate` stays current.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { basePathOf, parseSpec } from '../src/contract/spec.js';
import {
  apiChanges,
  checkBreaking,
  compareVersions,
  describeChange,
  latestRelease,
  parseVersion,
  type Change,
} from './breaking-changes.js';

/** The version was not released; `problems` says why, `breaking` lists what oasdiff found. */
export class ReleaseRefused extends Error {
  constructor(
    readonly problems: string[],
    readonly breaking: Change[] = [],
  ) {
    super(problems.join('; '));
    this.name = 'ReleaseRefused';
  }
}

/**
 * The spec's text with info.version set to `version`: only the value on that one line changes, so the
 * hand-written file keeps its comments, quoting and layout. Fails unless the result parses to the same
 * document with the new version.
 */
export function setInfoVersion(text: string, version: string): string {
  const lines = text.split('\n');
  const info = lines.findIndex((line) => /^info:\s*(#.*)?$/.test(line));
  const end = lines.findIndex((line, index) => index > info && /^[^\s#]/.test(line));
  const members = lines.slice(info + 1, end === -1 ? undefined : end);
  const indent = /^(\s+)\S/.exec(members.find((line) => /^\s+[^\s#]/.test(line)) ?? '')?.[1];
  const at = members.findIndex((line) => indent !== undefined && line.startsWith(`${indent}version:`));
  if (info === -1 || at === -1) throw new Error('the spec has no `info:` block with a `version:` line');
  const line = info + 1 + at;
  lines[line] = lines[line]!.replace(
    /^(\s+version:\s*)(['"]?)[^'"\s#]+\2/,
    (_, key: string, quote: string) => `${key}${quote}${version}${quote}`,
  );
  const result = lines.join('\n');

  const before = parseSpec(text);
  const after = parseSpec(result);
  if (after.info.version !== version || !isDeepStrictEqual({ ...after, info: { ...after.info, version: before.info.version } }, before)) {
    throw new Error(`could not set info.version on line ${line + 1} alone`);
  }
  return result;
}

function hasReleases(directory: string): boolean {
  return readdirSync(directory).some((name) => /^\d+\.\d+\.\d+\.yaml$/.test(name));
}

/** Why `revisionText` (already at `version`) may not be released after `releaseFile`. */
async function policyProblems(
  releaseFile: string,
  revisionText: string,
  version: string,
): Promise<{ problems: string[]; breaking: Change[] }> {
  const directory = mkdtempSync(join(tmpdir(), 'release-spec-'));
  try {
    const revisionFile = join(directory, `${version}.yaml`);
    writeFileSync(revisionFile, revisionText);
    const check = await checkBreaking(releaseFile, revisionFile);
    const problems = [...check.problems];
    const released = parseVersion(check.baseVersion);
    const next = parseVersion(version);
    // (checkBreaking refuses an older version.)
    if (compareVersions(next, released) === 0) problems.push(`${version} is released already`);
    if (check.breaking.length === 0 && next.major > released.major) {
      problems.push(
        `nothing breaks ${check.baseVersion}, so ${version} must not be a new major version (a minor or patch version of ${released.major})`,
      );
    }
    const changes = await apiChanges(releaseFile, revisionFile);
    if (changes.length > 0 && next.major === released.major && next.minor === released.minor) {
      problems.push(
        `${changes.length} change(s) to the API since ${check.baseVersion} need at least a minor version (${released.major}.${released.minor + 1}.0); a patch version is for wording, examples and descriptions`,
      );
    }
    const release = parseSpec(readFileSync(releaseFile, 'utf8'));
    const revision = parseSpec(revisionText);
    if (isDeepStrictEqual({ ...revision, info: { ...revision.info, version: check.baseVersion } }, release)) {
      problems.push(`nothing changed since ${check.baseVersion}`);
    }
    return { problems, breaking: check.breaking };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/**
 * Releases the spec as `version` under the versioning policy: MAJOR.MINOR.PATCH, newer than the latest
 * release, a new major version exactly when something breaks that release (and then served under
 * /v{major}), at least a new minor version when the API changed (oasdiff's changelog is not empty),
 * deprecations with their full notice. Writes `releasesDir/version.yaml` and the spec's new
 * info.version, or throws ReleaseRefused and writes nothing.
 */
/** The typed client's package (named in its manifest and in the lock file), versioned as the spec it is typed from. */
export interface ClientPackage {
  manifest: string;
  lockFile: string;
}

/** This project's client package: `npm run release:spec` sets its version with the spec's. */
export const CLIENT_PACKAGE: ClientPackage = { manifest: join('packages', 'client', 'package.json'), lockFile: 'package-lock.json' };

/** The files' texts with the client package's version set to `version`, each on its one line; throws when a line is not there. */
function clientVersionTexts({ manifest, lockFile }: ClientPackage, version: string): Array<[string, string]> {
  const set = (file: string, line: RegExp) => {
    const text = readFileSync(file, 'utf8');
    if (!line.test(text)) throw new Error(`${file}: no version line of the client package (${String(line)})`);
    return [file, text.replace(line, (_, key: string) => `${key}${version}"`)] as [string, string];
  };
  return [set(manifest, /^( {2}"version": ")[^"]*"/m), set(lockFile, /("packages\/client": \{\s*"name": "[^"]+",\s*"version": ")[^"]*"/)];
}

export async function releaseSpec(
  version: string,
  { specFile, releasesDir, client }: { specFile: string; releasesDir: string; client?: ClientPackage },
): Promise<string> {
  if (!/^\d+\.\d+\.\d+$/.test(version))
    throw new ReleaseRefused([`${JSON.stringify(version)} is not a version MAJOR.MINOR.PATCH (semver, no pre-release)`]);
  const text = readFileSync(specFile, 'utf8');
  const revisionText = setInfoVersion(text, version);
  if (hasReleases(releasesDir)) {
    const { problems, breaking } = await policyProblems(latestRelease(releasesDir), revisionText, version);
    if (problems.length > 0) throw new ReleaseRefused(problems, breaking);
  } else if (basePathOf(parseSpec(revisionText), { onDisagreement: 'refuse' }) !== `/v${parseVersion(version).major}`) {
    throw new ReleaseRefused([`version ${version} must be served under /v${parseVersion(version).major}`]);
  }
  const clientTexts = client ? clientVersionTexts(client, version) : [];
  const releaseFile = join(releasesDir, `${version}.yaml`);
  writeFileSync(releaseFile, revisionText);
  if (revisionText !== text) writeFileSync(specFile, revisionText);
  for (const [file, clientText] of clientTexts) writeFileSync(file, clientText);
  return releaseFile;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const { values, positionals } = parseArgs({
    options: { spec: { type: 'string', default: 'openapi.yaml' }, releases: { type: 'string', default: join('spec', 'releases') } },
    allowPositionals: true,
  });
  if (positionals.length !== 1) {
    process.stderr.write('usage: npm run release:spec -- X.Y.Z [--spec FILE] [--releases DIR]\n');
    process.exit(2);
  }
  const [version] = positionals as [string];
  try {
    // The project's own spec: its typed client takes the version too (docs/client.md).
    const client = values.spec === 'openapi.yaml' ? CLIENT_PACKAGE : undefined;
    const releaseFile = await releaseSpec(version, { specFile: values.spec, releasesDir: values.releases, ...(client ? { client } : {}) });
    const clientNote = client ? `, and so is the client package's (${client.manifest}, ${client.lockFile}). Commit them` : '. Commit both';
    process.stdout.write(`Released ${values.spec} as ${version}: ${releaseFile}, and info.version is ${version}${clientNote}.\n`);
  } catch (error) {
    if (!(error instanceof ReleaseRefused)) throw error;
    for (const change of error.breaking) process.stderr.write(`  ${describeChange(change)}\n`);
    for (const problem of error.problems) process.stderr.write(`✖ ${problem}\n`);
    process.stderr.write(`Not released: nothing was written.\n`);
    process.exitCode = 1;
  }
}
