import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_STATUSES } from '../../generated/contract.js';
import { PACKAGE_ROOT } from '../package-root.js';
import { contractFromDocument, type Contract } from './contract.js';
import { parseInstant } from './deprecations.js';
import { readContract } from './read-contract.js';
import { parseSpec, readSpecText, type OpenApiDocument } from './spec.js';

/** When the previous major version stops being current, and when it goes: `info.x-predecessor`. */
export interface Retirement {
  /** Since when the previous major version is deprecated: the new major version's release. */
  deprecatedAt: Date;
  /** From when it is no longer served. */
  sunsetAt: Date;
  /** Where its clients read how to move: the new version's reference. */
  successor: string;
}

/** The previous major version, served beside the current one until its sunset. */
export interface Predecessor {
  contract: Contract;
  retirement: Retirement;
}

export const RELEASES_DIR = join(PACKAGE_ROOT, 'spec', 'releases');

/**
 * `info.x-predecessor: { deprecatedAt, sunsetAt }` in a new major version of the spec: the previous
 * major version (its latest release in spec/releases/) is served beside it from deprecatedAt, with
 * Deprecation and Sunset on every response, until sunsetAt. Undefined when the spec declares none.
 */
export function readRetirement(document: OpenApiDocument, basePath: string): Retirement | undefined {
  const extension = (document.info as Record<string, unknown>)['x-predecessor'] as Record<string, unknown> | undefined;
  if (extension === undefined) return undefined;
  const deprecatedAt = parseInstant(extension['deprecatedAt'], 'info.x-predecessor.deprecatedAt');
  const sunsetAt = parseInstant(extension['sunsetAt'], 'info.x-predecessor.sunsetAt');
  if (sunsetAt <= deprecatedAt) throw new Error('openapi.yaml: info.x-predecessor.sunsetAt must follow deprecatedAt');
  return { deprecatedAt, sunsetAt, successor: `${basePath}/docs` };
}

function major(version: string): number {
  const match = /^(\d+)\.\d+\.\d+$/.exec(version);
  if (!match) throw new Error(`info.version must be MAJOR.MINOR.PATCH, not ${JSON.stringify(version)}`);
  return Number(match[1]);
}

/** The newest release of one major version in a releases directory (`1.2.0.yaml`), or undefined. */
export function latestReleaseOf(directory: string, majorVersion: number): string | undefined {
  const numbers = (name: string) => name.slice(0, -'.yaml'.length).split('.').map(Number) as [number, number, number];
  const releases = readdirSync(directory)
    .filter((name) => /^\d+\.\d+\.\d+\.yaml$/.test(name) && numbers(name)[0] === majorVersion)
    .sort((a, b) => {
      const [x, y] = [numbers(a), numbers(b)];
      return x[1] - y[1] || x[2] - y[2];
    });
  return releases.length > 0 ? join(directory, releases.at(-1)!) : undefined;
}

/**
 * The server's error registry is the current version's (generated/contract.ts): an older version may
 * use fewer codes, but each with the status the registry gives it.
 */
function assertCodesKnown(contract: Contract, version: string): void {
  const generated = new Map<string, number>(Object.entries(ERROR_STATUSES));
  for (const [code, status] of contract.errorCodes) {
    if (generated.get(code) !== status)
      throw new Error(`release ${version} answers ${code} with ${status}, which the current spec does not (generated/contract.ts)`);
  }
}

/**
 * The previous major version the current spec declares it succeeds (`info.x-predecessor`): the
 * latest release of that major version in `releasesDir`, its own contract (validated against its
 * own document, served under its own base path). Undefined when there is none to serve.
 */
export function loadPredecessor(current: Contract, releasesDir: string = RELEASES_DIR): Predecessor | undefined {
  const retirement = readRetirement(current.document, current.basePath);
  if (!retirement) return undefined;
  const previousMajor = major(current.document.info.version) - 1;
  const file = latestReleaseOf(releasesDir, previousMajor);
  if (!file) throw new Error(`openapi.yaml declares info.x-predecessor, but ${releasesDir} has no ${previousMajor}.x release`);
  const sourceText = readSpecText(file);
  const contract: Contract = { ...readContract(parseSpec(sourceText)), sourceText };
  if (contract.basePath === current.basePath)
    throw new Error(`release ${contract.document.info.version} is served under ${contract.basePath}, as the current version is`);
  assertCodesKnown(contract, contract.document.info.version);
  return { contract, retirement };
}

/** The current contract of a spec file and the predecessor it declares (tests serve copies this way). */
export function loadVersions(specFile: string, releasesDir: string): { current: Contract; predecessor?: Predecessor } {
  const sourceText = readSpecText(specFile);
  const current: Contract = { ...contractFromDocument(parseSpec(sourceText)), sourceText };
  const predecessor = loadPredecessor(current, releasesDir);
  return predecessor ? { current, predecessor } : { current };
}
