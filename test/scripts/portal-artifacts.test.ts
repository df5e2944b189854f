import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { backstageDescriptor, postmanCollection, specChangelog } from '../../scripts/portal-artifacts.js';
import { formatSpec, parseSpec, readSpecText, SPEC_PATH, type OpenApiDocument } from '../../src/contract/spec.js';

const current = parseSpec(readSpecText());
const fixtures = mkdtempSync(join(tmpdir(), 'petstore-portal-'));

function fixture(name: string, document: OpenApiDocument): string {
  const file = join(fixtures, name);
  writeFileSync(file, formatSpec(document));
  return file;
}

describe('specChangelog (CHANGELOG.md)', () => {
  it('says there is nothing to report when the spec is the release', async () => {
    const changelog = await specChangelog(fixture(`${current.info.version}.yaml`, current), SPEC_PATH, current.info.title);
    // (oasdiff adds ", but the specs are different": the fixture is the same document, written anew.)
    expect(changelog).toMatch(
      new RegExp(
        `^# ${current.info.title}: changes since ${current.info.version}\n\n` +
          `openapi\\.yaml against the release ${current.info.version}\\.yaml, by \`oasdiff changelog\`; .*\n\n` +
          'No changes to report(, but the specs are different)?\n$',
      ),
    );
  });

  it('lists a removed operation, marked as breaking', async () => {
    const released = structuredClone(current);
    released.paths['/extra'] = structuredClone(released.paths['/pets']!);
    const changelog = await specChangelog(fixture('9.9.9.yaml', released), SPEC_PATH, current.info.title);
    expect(changelog).toContain('# Pet Store Catalogue API: changes since 9.9.9\n');
    expect(changelog).toMatch(/### GET \/extra\n- :warning: {1,2}api path removed without deprecation/);
    expect(changelog).not.toMatch(/^- {2}/m);
  });

  it('lists an added operation and an added error code as additions, unmarked', async () => {
    const released = structuredClone(current);
    const [template, item] = Object.entries(released.paths).find(([, methods]) => Object.keys(methods).length > 1)!;
    const method = Object.keys(item).find((name) => name !== 'get')!;
    delete item[method];
    (released.components.schemas['ErrorCode']!['oneOf'] as unknown[]).pop();
    const changelog = await specChangelog(fixture('9.9.8.yaml', released), SPEC_PATH, current.info.title);
    expect(changelog).toContain(`### ${method.toUpperCase()} ${template}\n- endpoint added\n`);
    expect(changelog).toMatch(/^- added `subschema #\d+` to the `code` response property `oneOf` list/m);
    expect(changelog).not.toMatch(/^- :warning:/m);
  });
});

describe('backstageDescriptor (catalog-info.yaml)', () => {
  it('is an API entity of type openapi whose definition is the file beside it', () => {
    expect(
      backstageDescriptor({ ...current, info: { ...current.info, contact: { name: 'Pet Store API team' } } }, '/some/where/openapi.yaml'),
    ).toEqual({
      apiVersion: 'backstage.io/v1alpha1',
      kind: 'API',
      metadata: {
        name: 'pet-store-catalogue-api',
        title: current.info.title,
        description: (current.info as { summary?: string }).summary,
        tags: ['rest', 'openapi'],
      },
      spec: { type: 'openapi', lifecycle: 'production', owner: 'group:pet-store-api-team', definition: { $text: './openapi.yaml' } },
    });
  });

  it('needs info.contact.name to name the owner', () => {
    expect(() => backstageDescriptor({ ...current, info: { title: 'T', version: '1.0.0' } }, 'openapi.yaml')).toThrow(
      /info\.contact\.name/,
    );
  });
});

describe('postmanCollection', () => {
  it('refuses a spec whose operations need no bearer key, rather than write a collection without auth', async () => {
    const open = structuredClone(current) as OpenApiDocument & { security?: unknown };
    delete open.security;
    delete (open.components as { securitySchemes?: unknown }).securitySchemes;
    await expect(postmanCollection(JSON.stringify(open))).rejects.toThrow(/expected bearer auth/);
  });
});
