import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BUNDLED, loadSpec, parseSpec, specUrl } from '../../src/spec/load.js';
import { DeadlineReached, setGenerationDeadline } from '../../src/deadline.js';
import { cardsSpec } from '../support/semantics/cards.js';
import { ContractChecker } from '../../src/checks/response-contract.js';
import { readApiModel } from '../../src/spec/model.js';
import { resolveRef, valueAtPointer } from '../../src/spec/openapi.js';
import { PET_STORE_SPEC } from '../support/pet-store.js';
import { SHELTER_SPEC } from '../support/test-bed/shelter.js';

const folder = () => mkdtempSync(join(tmpdir(), 'openapi-'));
const minimal = (version = '3.1.0') => ({ openapi: version, info: { title: 'T', version: '1' }, paths: {} });

const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0)) close();
});

describe('reading a spec', () => {
  it('reads YAML and JSON, with the YAML 1.2 core schema, and fills in what a document may leave out', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'a.json'), JSON.stringify(minimal()));
    const json = await loadSpec(join(dir, 'a.json'));
    expect(json.components).toEqual({ schemas: {} });
    expect((await loadSpec(PET_STORE_SPEC)).openapi).toMatch(/^3\.1\./);
    expect(parseSpec('openapi: 3.1.0\ninfo: {title: T, version: 1.10}\npaths: {}\n').info.version).toBe(1.1);
  });

  it('takes OpenAPI 3.0 and 3.1, and says what else it was given', () => {
    expect(parseSpec('openapi: 3.0.4\ninfo: {title: T, version: "1"}\npaths: {}\n').openapi).toBe('3.0.4');
    expect(() => parseSpec('swagger: "2.0"\ninfo: {}\n')).toThrow('is Swagger "2.0": convert it to OpenAPI 3 first');
    expect(() => parseSpec('openapi: 4.0.0\n')).toThrow('is not an OpenAPI 3.0 or 3.1 document (openapi: "4.0.0")');
    expect(() => parseSpec('just text')).toThrow('is not an OpenAPI 3.0 or 3.1 document');
    expect(() => parseSpec('openapi: 3.1.0\nopenapi: 3.1.1\n')).toThrow(/is not YAML or JSON: duplicated mapping key/);
  });

  it('reads a spec from a URL, and the files its $refs name relative to it', async () => {
    const files: Record<string, string> = {
      '/api/spec.yaml': 'openapi: 3.1.0\ninfo: {title: Remote, version: "1"}\npaths:\n  /a:\n    $ref: "paths.yaml#/a"\n',
      '/api/paths.yaml': 'a:\n  get:\n    operationId: getA\n    responses:\n      "200":\n        description: ok\n',
    };
    const server = createServer((request, response) => {
      const text = files[request.url!];
      response.writeHead(text ? 200 : 404).end(text);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => server.close());
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const document = await loadSpec(`${base}/api/spec.yaml`);
    expect(document.info.title).toBe('Remote');
    expect(resolveRef(document, document.paths['/a']!)).toMatchObject({ get: { operationId: 'getA' } });
    await expect(loadSpec(`${base}/nothing.yaml`)).rejects.toThrow(`${base}/nothing.yaml answered 404`);
  });

  it('bundles $refs to other files, each read once, their own $refs kept within them, recursion kept', async () => {
    const document = await loadSpec(SHELTER_SPEC);
    const bundled = (document as unknown as Record<string, Record<string, unknown>>)[BUNDLED]!;
    expect(Object.keys(bundled)).toEqual(['f1']);
    expect(valueAtPointer(document, '/paths/~1animals/post/requestBody/content/application~1json/schema')).toEqual({
      $ref: `#/${BUNDLED}/f1/NewAnimal`,
    });
    expect(valueAtPointer(document, `/${BUNDLED}/f1/NewAnimal/properties/mother`)).toEqual({ $ref: `#/${BUNDLED}/f1/Animal` });
    expect(valueAtPointer(document, `/${BUNDLED}/f1/Animal/allOf/0`)).toEqual({ $ref: `#/${BUNDLED}/f1/NewAnimal` });
    // 3.0's nullable, in the other file too, is read as 2020-12.
    expect(valueAtPointer(document, `/${BUNDLED}/f1/NewAnimal/properties/tag`)).toEqual({ type: ['string', 'null'], maxLength: 20 });
  });

  it('names files relative to the folder it runs in, and URLs as they are', () => {
    expect(specUrl('spec.yaml', '/srv/api').href).toBe('file:///srv/api/spec.yaml');
    expect(specUrl('/abs/spec.yaml', '/srv').href).toBe('file:///abs/spec.yaml');
    expect(specUrl('/abs/business units.json', '/srv').href).toBe('file:///abs/business%20units.json');
    expect(specUrl('my api/spec.yaml', '/srv').href).toBe('file:///srv/my%20api/spec.yaml');
    expect(specUrl('https://x.test/openapi.json').href).toBe('https://x.test/openapi.json');
  });
});

describe("a $ref inside an extension (x-…): not the tester's to resolve", () => {
  it('is kept as it is, and neither the load nor the model fails on it', async () => {
    const dir = folder();
    const spec = {
      ...minimal(),
      // Redocly's x-topics point at Markdown files; this one does not even exist.
      'x-topics': [{ title: 'Guide', content: { $ref: './topics/guide.md' } }],
      paths: {
        '/things': {
          get: {
            operationId: 'listThings',
            'x-code-samples': { $ref: './samples/missing.yaml' },
            responses: {
              '200': {
                description: 'ok',
                content: { 'application/json': { schema: { type: 'array', 'x-docs': { $ref: './docs.md#/nowhere' } } } },
              },
            },
          },
        },
      },
    };
    writeFileSync(join(dir, 'openapi.json'), JSON.stringify(spec));
    const document = await loadSpec(join(dir, 'openapi.json'));
    expect(document['x-topics']).toEqual(spec['x-topics']);
    const model = readApiModel(document);
    expect(model.operations[0]!.responses[0]!.schema).toMatchObject({ type: 'array', 'x-docs': { $ref: './docs.md#/nowhere' } });
    const checker = new ContractChecker(document);
    expect(
      checker.violations({
        method: 'GET',
        url: '/things',
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: [],
        text: '[]',
      }),
    ).toEqual([]);
  });
});

describe('reading a spec within the budget', () => {
  it('stops at the end of the budget: the walks over the document ask it (JSON.parse alone cannot be stopped)', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'load-deadline-')), 'cards.json');
    writeFileSync(file, JSON.stringify(cardsSpec('3.0.3')));
    setGenerationDeadline(performance.now() - 1);
    try {
      await expect(loadSpec(file)).rejects.toThrow(DeadlineReached);
    } finally {
      setGenerationDeadline(undefined);
    }
    expect((await loadSpec(file)).openapi).toBe('3.0.3');
  });
});
