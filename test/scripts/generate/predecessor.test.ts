import { mkdirSync, mkdtempSync, copyFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { predecessorFiles } from '../../../scripts/generate/predecessor.js';
import { loadContract } from '../../../src/contract/contract.js';
import { RELEASES_DIR } from '../../../src/contract/versions.js';

const document = loadContract().document;

describe("the previous major version's types", () => {
  it("are this version's own while openapi.yaml declares no predecessor", async () => {
    const files = await predecessorFiles(document, '/nowhere', '/out', '');
    expect(files).toEqual([{ path: '/out/predecessor.ts', text: expect.stringContaining("from './openapi.js';") as unknown }]);
  });

  it("are generated from the previous major's latest release once a 2.0.0 declares it its predecessor", async () => {
    const root = mkdtempSync(join(tmpdir(), 'petstore-generate-'));
    mkdirSync(join(root, 'spec', 'releases'), { recursive: true });
    for (const name of readdirSync(RELEASES_DIR)) copyFileSync(join(RELEASES_DIR, name), join(root, 'spec', 'releases', name));
    const version2 = structuredClone(document);
    version2.info = {
      ...version2.info,
      version: '2.0.0',
      'x-predecessor': { deprecatedAt: '2026-12-01T00:00:00Z', sunsetAt: '2027-06-01T00:00:00Z' },
    } as typeof version2.info;
    for (const server of version2.servers!) server.url = server.url.replace(/\/v1$/, '/v2');
    const [types, alias] = await predecessorFiles(version2, root, '/out', '');
    expect(types!.path).toBe('/out/v1/openapi.d.ts');
    expect(types!.text).toContain('listPets: {');
    expect(alias).toEqual({ path: '/out/predecessor.ts', text: expect.stringContaining("from './v1/openapi.js';") as unknown });
  });
});
