import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_FILES, EXAMPLE_RESETS } from '../../scripts/example-manifest.js';
import { newApi, readDocument, removeExample } from '../../scripts/new-api.js';
import { SpecProblems } from '../../scripts/generate/spec-check.js';

/** A folder with the example's files and the files it resets, each holding its own path. */
function withExample(): string {
  const root = mkdtempSync(join(tmpdir(), 'new-api-'));
  for (const file of [...EXAMPLE_FILES.map((path) => (path.endsWith('/') ? `${path}x.ts` : path)), ...Object.keys(EXAMPLE_RESETS)]) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(
      join(root, file),
      file.endsWith('.json') ? '{ "checks": { "error_schema_conformance": {}, "head_as_get": true } }' : file,
    );
  }
  return root;
}

describe('npm run new-api', () => {
  it('refuses a file that is not an OpenAPI 3.0 or 3.1 document, naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'new-api-'));
    writeFileSync(join(dir, 'swagger.yaml'), 'swagger: "2.0"\n');
    writeFileSync(join(dir, 'broken.yaml'), 'openapi: [\n');
    expect(() => readDocument(join(dir, 'swagger.yaml'))).toThrow(
      /swagger\.yaml is no OpenAPI 3\.0 or 3\.1 document \(its `openapi` is null\)/,
    );
    expect(() => readDocument(join(dir, 'broken.yaml'))).toThrow(/broken\.yaml is neither YAML nor JSON/);
  });

  it('removes the example, resets what it filled, and leaves things be once it is gone', () => {
    const root = withExample();
    expect(removeExample(root).removed).toEqual(EXAMPLE_FILES);
    for (const file of EXAMPLE_FILES) expect(() => readFileSync(join(root, file))).toThrow(/ENOENT/);
    expect(readFileSync(join(root, 'src/errors/document-messages.ts'), 'utf8')).toContain('DOCUMENT_ERROR_MESSAGES = {} as const');
    expect(JSON.parse(readFileSync(join(root, 'contract-test.config.json'), 'utf8'))).toMatchObject({ checks: { head_as_get: true } });
    expect(readFileSync(join(root, 'contract-test.config.json'), 'utf8')).not.toContain('error_schema_conformance');

    writeFileSync(join(root, 'src/errors/document-messages.ts'), 'my own messages');
    expect(removeExample(root)).toEqual({ removed: [], reset: [] });
    expect(readFileSync(join(root, 'src/errors/document-messages.ts'), 'utf8')).toBe('my own messages');
  });

  it('changes nothing when generate would refuse the document, and says where', async () => {
    const root = withExample();
    writeFileSync(join(root, 'openapi.yaml'), 'the pet store');
    const operation = (operationId: string) => ({ operationId, responses: { '204': { description: 'done' } } });
    const document = {
      openapi: '3.1.0',
      info: { title: 't', version: '1' },
      paths: { '/a': { get: operation('same') }, '/b': { get: operation('same') } },
    };
    writeFileSync(join(root, 'theirs.json'), JSON.stringify(document));
    const refused = await newApi(join(root, 'theirs.json'), root).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(SpecProblems);
    expect((refused as SpecProblems).problems.join('\n')).toMatch(/theirs\.json:\d+:\d+: Every operation must have a unique `operationId`/);
    expect(readFileSync(join(root, 'openapi.yaml'), 'utf8')).toBe('the pet store');
    expect(readFileSync(join(root, 'src/errors/document-messages.ts'), 'utf8')).toBe('src/errors/document-messages.ts');
  });
});
