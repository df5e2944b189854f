import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  basePathOf,
  exactPathPattern,
  listOperations,
  matchPathTemplate,
  parseSpec,
  readSpecText,
  resolveRef,
  resolveRefAt,
  valueAtPointer,
  type OpenApiDocument,
} from '../src/openapi.js';
import { PET_STORE_SPEC } from './support/pet-store.js';

const minimal = (extra: Partial<OpenApiDocument> = {}): OpenApiDocument => ({
  openapi: '3.1.0',
  info: { title: 'T', version: '1' },
  paths: {},
  components: { schemas: {} },
  ...extra,
});

describe('reading a spec', () => {
  it('reads YAML and JSON from a file, with the YAML 1.2 core schema', () => {
    const folder = mkdtempSync(join(tmpdir(), 'openapi-'));
    writeFileSync(join(folder, 'a.json'), JSON.stringify(minimal({ info: { title: 'J', version: '2' } })));
    expect(parseSpec(readSpecText(join(folder, 'a.json'))).info).toEqual({ title: 'J', version: '2' });
    const yaml = parseSpec(readSpecText(PET_STORE_SPEC));
    expect(yaml.openapi).toMatch(/^3\.1\./);
    expect(parseSpec('openapi: 3.1.0\ninfo: {title: T, version: 1.10}\npaths: {}\ncomponents: {schemas: {}}\n').info.version).toBe(1.1);
  });

  it('refuses what is not OpenAPI 3.1, and duplicate keys', () => {
    expect(() => parseSpec('openapi: 3.0.3\ninfo: {}\n')).toThrow('must be an OpenAPI 3.1 document');
    expect(() => parseSpec('just text')).toThrow('must be an OpenAPI 3.1 document');
    expect(() => parseSpec('openapi: 3.1.0\nopenapi: 3.1.1\n')).toThrow(/duplicated mapping key/);
  });
});

describe('operations and paths', () => {
  const document = minimal({
    servers: [{ url: 'https://{host}/v2/', variables: { host: { default: 'a.test' } } }, { url: 'http://b.test/v2' }],
    paths: {
      '/pets': { get: { operationId: 'list' }, post: { operationId: 'add' } },
      '/pets/{id}': { parameters: [], get: { operationId: 'one' } },
    },
  });

  it('lists each operation with its method and path template, skipping what is no method', () => {
    expect(listOperations(document).map(({ method, path, operation }) => `${method} ${path} ${operation.operationId}`)).toEqual([
      'get /pets list',
      'post /pets add',
      'get /pets/{id} one',
    ]);
  });

  it('takes the base path the servers agree on, and refuses servers that disagree', () => {
    expect(basePathOf(document)).toBe('/v2');
    expect(basePathOf(minimal())).toBe('');
    expect(() => basePathOf(minimal({ servers: [{ url: '/v1' }, { url: '/v2' }] }))).toThrow('disagree on the base path: /v1, /v2');
  });

  it('matches paths against templates exactly, and reads their parameters percent-decoded', () => {
    const pattern = exactPathPattern('/pets/{id}.json');
    expect(pattern.test('/pets/7.json')).toBe(true);
    expect(pattern.test('/pets/7xjson')).toBe(false);
    expect(pattern.test('/Pets/7.json')).toBe(false);
    expect(pattern.test('/pets/7/8.json')).toBe(false);
    expect(matchPathTemplate('/a/{x}/b/{y}', '/a/1%2F2/b/%C3%A9')).toEqual({ x: '1/2', y: 'é' });
    expect(matchPathTemplate('/a/{x}', '/a/%E0%A4%A')).toBeUndefined();
    expect(matchPathTemplate('/a/{x}', '/b/1')).toBeUndefined();
  });
});

describe('pointers and $refs', () => {
  const document = minimal({
    components: { schemas: {}, parameters: { 'a/b~c': { name: 'x', in: 'header' }, Alias: { $ref: '#/components/parameters/a~1b~0c' } } },
  });

  it('reads the value a JSON pointer names, unescaping ~1 and ~0', () => {
    expect(valueAtPointer(document, '/components/parameters/a~1b~0c/name')).toBe('x');
    expect(valueAtPointer(document, '/components/nothing/here')).toBeUndefined();
    expect(valueAtPointer(document, '')).toBe(document);
  });

  it('follows local $refs, through chains, and says where it ended', () => {
    expect(resolveRefAt(document, { $ref: '#/components/parameters/Alias' })).toEqual({
      value: { name: 'x', in: 'header' },
      pointer: '/components/parameters/a~1b~0c',
    });
    const inline: { $ref?: string; name: string } = { name: 'y' };
    expect(resolveRef(document, inline)).toBe(inline);
  });

  it('refuses external, dangling and circular $refs', () => {
    expect(() => resolveRef(document, { $ref: 'other.yaml#/x' })).toThrow('only local $refs are supported');
    expect(() => resolveRef(document, { $ref: '#/components/parameters/Nothing' })).toThrow('points at nothing');
    const loop = minimal({ components: { schemas: { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } } } });
    expect(() => resolveRef(loop, { $ref: '#/components/schemas/A' })).toThrow('goes round in a circle');
  });
});
