import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { specFiles } from '../../../scripts/dev/spec-files.js';

describe('specFiles: what npm run dev watches as the spec', () => {
  it('is openapi.yaml and every local file it references, through the files those reference', () => {
    const dir = mkdtempSync(join(tmpdir(), 'petstore-spec-files-'));
    mkdirSync(join(dir, 'schemas'));
    const file = (path: string, text: string) => writeFileSync(join(dir, path), text);
    file(
      'openapi.yaml',
      [
        'openapi: 3.1.0',
        'components:',
        '  schemas:',
        "    Pet: { $ref: './schemas/pet.yaml#/Pet' }",
        "    Local: { $ref: '#/components/schemas/Pet' }",
        "    Remote: { $ref: 'https://example.com/x.yaml' }",
        "    Missing: { $ref: './nowhere.yaml' }",
        "    Broken: { $ref: './broken.yaml' }",
      ].join('\n'),
    );
    file('schemas/pet.yaml', "Pet: { $ref: '../common.yaml#/Name' }\n");
    file('common.yaml', "Name: { type: string, x-again: { $ref: './openapi.yaml' } }\n");
    file('broken.yaml', 'a: [unclosed\n');
    expect(specFiles(join(dir, 'openapi.yaml')).sort()).toEqual(
      ['openapi.yaml', 'schemas/pet.yaml', 'common.yaml', 'broken.yaml'].map((path) => join(dir, path)).sort(),
    );
  });
});
