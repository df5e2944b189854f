import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import {
  changelogBase,
  checkBreaking,
  compatibleAlternative,
  latestRelease,
  MIN_NOTICE_DAYS,
  NEW_MAJOR_DOCS,
} from '../../scripts/breaking-changes.js';
import { parseSpec, readSpecText, SPEC_PATH, type OpenApiDocument, type SchemaObject } from '../../src/contract/spec.js';

const RELEASE = latestRelease('spec/releases');
const released = parseSpec(readSpecText(RELEASE));
const fixtures = mkdtempSync(join(tmpdir(), 'petstore-breaking-'));

/** A fixture spec: the latest release with one change. */
function revise(name: string, change: (document: OpenApiDocument, schemas: Record<string, SchemaObject>) => void): string {
  const document = structuredClone(released);
  change(document, document.components.schemas);
  const file = join(fixtures, `${name}.yaml`);
  writeFileSync(file, YAML.stringify(document));
  return file;
}

function operation(document: OpenApiDocument, path: string, method: string): { parameters?: unknown[] } {
  return document.paths[path]![method] as { parameters?: unknown[] };
}

function properties(schema: SchemaObject): Record<string, unknown> {
  return schema['properties'] as Record<string, unknown>;
}

function majorVersion(document: OpenApiDocument, major: number): void {
  document.info.version = `${major}.0.0`;
  for (const server of document.servers!) server.url = server.url.replace(/\/v\d+$/, `/v${major}`);
}

describe('changelogBase', () => {
  it('compares a version with the newest release older than it, or else the newest release', () => {
    const directory = mkdtempSync(join(tmpdir(), 'petstore-releases-'));
    for (const version of ['1.0.0', '1.1.0', '1.10.0', '1.2.0']) writeFileSync(join(directory, `${version}.yaml`), '');
    expect(changelogBase(directory, '1.2.0')).toBe(join(directory, '1.1.0.yaml'));
    expect(changelogBase(directory, '1.3.0')).toBe(join(directory, '1.2.0.yaml'));
    expect(changelogBase(directory, '2.0.0')).toBe(join(directory, '1.10.0.yaml'));
    expect(changelogBase(directory, '1.0.0')).toBe(join(directory, '1.10.0.yaml'));
  });
});

describe('the breaking-change guard', () => {
  it('passes openapi.yaml against the latest release (npm run check:breaking)', () => {
    const output = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/check-breaking.ts'], { encoding: 'utf8' });
    expect(output).toContain(`openapi.yaml (${parseSpec(readFileSync(SPEC_PATH, 'utf8')).info.version}) against ${RELEASE}`);
  });

  it.each([
    ['an operation removed', 'api-removed-without-deprecation', (d: OpenApiDocument) => delete d.paths['/pets']!['post']],
    ['a deprecated operation removed', 'api-path-removed-with-deprecation', (d: OpenApiDocument) => delete d.paths['/pets/{petId}']],
    [
      'a response field removed',
      'response-required-property-removed',
      (_: OpenApiDocument, s: Record<string, SchemaObject>) => {
        delete properties(s['Pet']!)['categoryId'];
        s['Pet']!['required'] = ['id', 'name'];
      },
    ],
    [
      'an optional response field removed',
      'response-optional-property-removed',
      (_: OpenApiDocument, s: Record<string, SchemaObject>) => {
        delete properties(s['Pet']!)['status'];
      },
    ],
    [
      'a request field removed',
      'request-property-removed',
      (_: OpenApiDocument, s: Record<string, SchemaObject>) => {
        delete properties(s['NewPet']!)['status'];
      },
    ],
    [
      'an enum narrowed',
      'request-property-enum-value-removed',
      (_: OpenApiDocument, s: Record<string, SchemaObject>) => {
        s['PetStatus']!['enum'] = ['available', 'pending'];
      },
    ],
    [
      'a body field made required',
      'request-property-became-required',
      (_: OpenApiDocument, s: Record<string, SchemaObject>) => {
        s['NewPet']!['required'] = ['name', 'categoryId', 'status'];
      },
    ],
    [
      'a new required parameter',
      'new-required-request-parameter',
      (d: OpenApiDocument) => {
        operation(d, '/pets', 'get').parameters!.push({
          name: 'owner',
          in: 'query',
          required: true,
          description: 'Owner.',
          schema: { type: 'string' },
        });
      },
    ],
    [
      'a type changed',
      'request-property-type-changed',
      (_: OpenApiDocument, s: Record<string, SchemaObject>) => {
        s['CategoryId'] = { type: 'string', description: 'Category.', examples: ['3'] };
      },
    ],
  ])('fails on %s within the major version', async (name, check, change) => {
    const result = await checkBreaking(RELEASE, revise(name.replace(/ /g, '-'), change));
    expect(result.breaking.map((finding) => finding.id)).toContain(check);
    expect(result.problems).toEqual([
      expect.stringMatching(
        new RegExp(
          `breaking change\\(s\\) to ${released.info.version.replace(/\./g, '\\.')} need a new major version \\(2\\.0\\.0, under /v2\\)`,
        ),
      ),
    ]);
  });

  it('passes compatible additions: an operation, an optional parameter and field, an error code', async () => {
    const [major, minor] = released.info.version.split('.').map(Number);
    const nextMinor = `${major}.${minor! + 1}.0`;
    const file = revise('compatible', (document, schemas) => {
      document.info.version = nextMinor;
      operation(document, '/pets', 'get').parameters!.push({
        name: 'name',
        in: 'query',
        required: false,
        description: 'Name.',
        schema: { type: 'string' },
      });
      properties(schemas['NewPet']!)['nickname'] = { type: 'string', description: 'Nickname.', examples: ['Rexy'] };
      properties(schemas['Pet']!)['nickname'] = { type: 'string', description: 'Nickname.', examples: ['Rexy'] };
      (schemas['ErrorCode']!['oneOf'] as SchemaObject[]).push({
        const: 'owner_not_found',
        description: 'No such owner.',
        'x-http-status': 404,
      });
      document.paths['/owners'] = { get: { operationId: 'listOwners', responses: { '200': { description: 'Owners.' } } } };
    });
    const result = await checkBreaking(RELEASE, file);
    expect(result).toMatchObject({ revisionVersion: nextMinor, breaking: [], problems: [] });
  });

  it('passes breaking changes with a new major version under a new base path', async () => {
    const file = revise('major', (document) => {
      majorVersion(document, 2);
      delete document.paths['/pets']!['post'];
    });
    const result = await checkBreaking(RELEASE, file);
    expect(result.breaking).not.toEqual([]);
    expect(result.problems).toEqual([]);
  });

  it('fails a new major version still under the old base path, and a version that goes back', async () => {
    const samePath = revise('major-same-path', (document) => {
      document.info.version = '2.0.0';
    });
    expect((await checkBreaking(RELEASE, samePath)).problems).toEqual(['version 2.0.0 must be served under /v2, not /v1']);
    const older = revise('older', (document) => {
      document.info.version = '0.9.0';
    });
    expect((await checkBreaking(RELEASE, older)).problems).toContain(
      `info.version 0.9.0 is older than the release ${released.info.version}`,
    );
  });

  it('fails a deprecation with less than the minimum notice before its sunset', async () => {
    const file = revise('short-notice', (document) => {
      const getPet = document.paths['/pets/{petId}']!['get'] as { 'x-deprecation': { deprecatedAt: string; sunsetAt: string } };
      getPet['x-deprecation'].sunsetAt = '2026-12-21T00:00:00Z';
    });
    expect((await checkBreaking(RELEASE, file)).problems).toEqual([
      `getPet must be deprecated at least ${MIN_NOTICE_DAYS} days before its sunset`,
    ]);
  });

  it('fails a new major version that serves its predecessor for less than the minimum notice', async () => {
    const file = revise('short-predecessor', (document) => {
      majorVersion(document, 2);
      (document.info as Record<string, unknown>)['x-predecessor'] = {
        deprecatedAt: '2026-12-01T00:00:00Z',
        sunsetAt: '2027-01-01T00:00:00Z',
      };
    });
    expect((await checkBreaking(RELEASE, file)).problems).toEqual([
      `info.x-predecessor must serve /v1 at least ${MIN_NOTICE_DAYS} days from its deprecation to its sunset`,
    ]);
  });

  it('fails when the command itself finds a break', () => {
    const file = revise('cli', (document) => delete document.paths['/pets']!['get']);
    expect(() => execFileSync(process.execPath, ['--import', 'tsx', 'scripts/check-breaking.ts', file], { stdio: 'pipe' })).toThrow(
      /need a new major version/,
    );
  });

  it('explains the compatible alternative when it refuses a renamed parameter', () => {
    const file = revise('renamed', (document) => {
      const parameters = document.components['parameters'] as Record<string, { name: string; in: string }>;
      const status = Object.values(parameters).find((parameter) => parameter.in === 'query' && parameter.name === 'status')!;
      status.name = 'state';
    });
    let output = '';
    try {
      execFileSync(process.execPath, ['--import', 'tsx', 'scripts/check-breaking.ts', file], { stdio: 'pipe', encoding: 'utf8' });
    } catch (error) {
      output = (error as { stdout: string }).stdout;
    }
    expect(output).toContain('[request-parameter-removed]');
    expect(output).toContain(`compatible instead: keep \`status\` with \`deprecated: true\` and add its replacement beside it`);
    expect(output).toContain(NEW_MAJOR_DOCS);
  });
});

describe('compatibleAlternative', () => {
  const change = (id: string, text: string) => ({ id, text, level: 3 });

  it('names what to keep for a removal, what to make optional for a new requirement', () => {
    expect(compatibleAlternative(change('request-property-removed', 'removed the request property `name`'))).toMatch(
      /^keep `name` with `deprecated: true`/,
    );
    expect(compatibleAlternative(change('api-removed-without-deprecation', 'api removed without deprecation'))).toMatch(
      /^keep the operation with `deprecated: true`, `x-deprecation` and a documented 410/,
    );
    expect(compatibleAlternative(change('response-required-property-removed', 'removed the required property `name`'))).toMatch(
      /^keep `name` in the response/,
    );
    expect(compatibleAlternative(change('new-required-request-parameter', 'added the new required `query` request parameter `q`'))).toMatch(
      /^make `q` optional/,
    );
  });

  it('points every alternative at the new major version as well, and knows none for a narrowed type', () => {
    expect(compatibleAlternative(change('request-parameter-removed', 'deleted `status`'))).toContain(NEW_MAJOR_DOCS);
    expect(compatibleAlternative(change('request-parameter-type-changed', 'changed the type'))).toBeUndefined();
  });
});
