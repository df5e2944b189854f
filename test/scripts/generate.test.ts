import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../../scripts/generate.js';

describe('npm run generate (scripts/generate.ts)', () => {
  it('made what is committed in generated/, from openapi.yaml as it is today', async () => {
    const fresh = mkdtempSync(join(tmpdir(), 'petstore-generate-'));
    await generate({ out: fresh });
    // Every file, those of generated/handlers/ included.
    const filesOf = (folder: string) =>
      readdirSync(folder, { recursive: true, encoding: 'utf8' })
        .filter((file) => statSync(join(folder, file)).isFile())
        .sort();
    const files = filesOf(fresh);
    expect(filesOf('generated')).toEqual(files);
    for (const file of files) {
      expect(
        readFileSync(join('generated', file), 'utf8'),
        `generated/${file} is stale: run \`npm run generate\` and commit the result`,
      ).toBe(readFileSync(join(fresh, file), 'utf8'));
    }
  });
});
