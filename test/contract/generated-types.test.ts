import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('generated/', () => {
  it('is what `npm run generate` makes from openapi.yaml today', () => {
    const fresh = join(mkdtempSync(join(tmpdir(), 'petstore-generate-')), 'openapi.d.ts');
    execFileSync(process.execPath, ['node_modules/openapi-typescript/bin/cli.js', 'openapi.yaml', '-o', fresh], { stdio: 'pipe' });
    const committed = readFileSync('generated/openapi.d.ts', 'utf8');
    expect(committed, 'generated/ is stale: run `npm run generate` and commit the result').toBe(readFileSync(fresh, 'utf8'));
  });
});
