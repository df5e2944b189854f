import { copyFileSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { dump } from 'js-yaml';
import { loadContract, type Contract } from '../../src/contract/contract.js';
import { latestReleaseOf, loadPredecessor, loadVersions, readRetirement, RELEASES_DIR } from '../../src/contract/versions.js';
import type { OpenApiDocument } from '../../src/contract/spec.js';

const current = loadContract();

/** openapi.yaml as a 2.0.0 under /v2 declaring `x-predecessor` (dates as given). */
function version2(predecessor: Record<string, unknown> | undefined): OpenApiDocument {
  const document = structuredClone(current.document);
  document.info = { ...document.info, version: '2.0.0', ...(predecessor ? { 'x-predecessor': predecessor } : {}) };
  for (const server of document.servers!) server.url = server.url.replace(/\/v1$/, '/v2');
  return document;
}

function asContract(document: OpenApiDocument): Contract {
  return { ...current, document, basePath: '/v2' };
}

/** A copy of spec/releases/ with extra files. */
function releases(extra: Record<string, string> = {}): string {
  const directory = mkdtempSync(join(tmpdir(), 'petstore-releases-'));
  for (const name of readdirSync(RELEASES_DIR)) copyFileSync(join(RELEASES_DIR, name), join(directory, name));
  for (const [name, text] of Object.entries(extra)) writeFileSync(join(directory, name), text);
  return directory;
}

const dates = { deprecatedAt: '2026-12-01T00:00:00Z', sunsetAt: '2027-06-01T00:00:00Z' };

describe('the versions one process serves', () => {
  it('is the current one alone while openapi.yaml declares no predecessor (the repository today)', () => {
    expect(readRetirement(current.document, current.basePath)).toBeUndefined();
    expect(loadPredecessor(current)).toBeUndefined();
    expect(loadVersions(join(RELEASES_DIR, '..', '..', 'openapi.yaml'), RELEASES_DIR).predecessor).toBeUndefined();
  });

  it("reads the predecessor's retirement from the new version's info.x-predecessor", () => {
    expect(readRetirement(version2(dates), '/v2')).toEqual({
      deprecatedAt: new Date(dates.deprecatedAt),
      sunsetAt: new Date(dates.sunsetAt),
      successor: '/v2/docs',
    });
  });

  it.each([
    [{ sunsetAt: dates.sunsetAt }, 'info.x-predecessor.deprecatedAt must be an RFC 3339 date-time'],
    [{ deprecatedAt: dates.deprecatedAt, sunsetAt: 'soon' }, 'info.x-predecessor.sunsetAt must be an RFC 3339 date-time'],
    [{ deprecatedAt: dates.sunsetAt, sunsetAt: dates.deprecatedAt }, 'sunsetAt must follow deprecatedAt'],
  ])('refuses x-predecessor %j', (predecessor, message) => {
    expect(() => readRetirement(version2(predecessor), '/v2')).toThrow(message);
  });

  it('serves the latest release of the previous major version, from its own document and base path', () => {
    const predecessor = loadPredecessor(
      asContract(version2(dates)),
      releases({ '1.10.0.yaml': dump({ ...current.document, info: { ...current.document.info, version: '1.10.0' } }) }),
    )!;
    expect(predecessor.contract.document.info.version).toBe('1.10.0');
    expect(predecessor.contract.basePath).toBe('/v1');
    expect(predecessor.retirement.successor).toBe('/v2/docs');
  });

  it('picks releases by number, not by name', () => {
    const directory = releases({ '1.10.0.yaml': '', '2.0.0.yaml': '', '0.9.0.yaml': '' });
    expect(latestReleaseOf(directory, 1)).toBe(join(directory, '1.10.0.yaml'));
    expect(latestReleaseOf(directory, 0)).toBe(join(directory, '0.9.0.yaml'));
    expect(latestReleaseOf(directory, 3)).toBeUndefined();
  });

  it('refuses a predecessor it cannot serve: none released, the same base path, an error status of its own', () => {
    const empty = mkdtempSync(join(tmpdir(), 'petstore-releases-'));
    expect(() => loadPredecessor(asContract(version2(dates)), empty)).toThrow('has no 1.x release');
    const samePath = version2(dates);
    samePath.servers = current.document.servers!;
    expect(() => loadPredecessor({ ...asContract(samePath), basePath: '/v1' }, releases())).toThrow(
      'is served under /v1, as the current version is',
    );
    const other = structuredClone(current.document);
    other.info.version = '1.9.0';
    const codes = other.components.schemas['ErrorCode']!['oneOf'] as Array<Record<string, unknown>>;
    codes[0] = { ...codes[0], 'x-http-status': 599 };
    expect(() => loadPredecessor(asContract(version2(dates)), releases({ '1.9.0.yaml': dump(other) }))).toThrow(
      /release 1\.9\.0 answers \w+ with 599/,
    );
  });
});
