import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { packageFile } from '../support/client-tarball.js';
import { parseSpec, readSpecText } from '../support/pet-store.js';

const manifest = JSON.parse(readFileSync(packageFile('package.json'), 'utf8')) as Record<string, unknown>;

describe("the client's package.json", () => {
  it("carries the API's version, openapi.yaml's info.version", () => {
    const { version } = parseSpec(readSpecText()).info;
    expect(manifest['version'], `set "version" in packages/client/package.json to ${version}, openapi.yaml's info.version`).toBe(version);
  });

  it('has no dependencies of any kind: openapi-fetch is bundled, its declarations vendored', () => {
    for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies', 'bundleDependencies'])
      expect(manifest).not.toHaveProperty(field);
  });
});
