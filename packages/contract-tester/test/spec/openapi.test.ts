import { describe, expect, it } from 'vitest';
import {
  basePathOf,
  exactPathPattern,
  listOperations,
  matchPathTemplate,
  pointerOfRef,
  resolveRef,
  resolveRefAt,
  valueAtPointer,
  type OpenApiDocument,
} from '../../src/spec/openapi.js';

const minimal = (extra: Partial<OpenApiDocument> = {}): OpenApiDocument => ({
  openapi: '3.1.0',
  info: { title: 'T', version: '1' },
  paths: {},
  components: { schemas: {} },
  ...extra,
});

describe('operations and paths', () => {
  const document = minimal({
    servers: [{ url: 'https://{host}/v2/', variables: { host: { default: 'a.test' } } }, { url: 'http://b.test/v2' }],
    paths: {
      '/pets': { get: { operationId: 'list' }, post: { operationId: 'add' } },
      '/pets/{id}': { parameters: [{ name: 'id', in: 'path' }], get: { operationId: 'one' }, delete: {} },
      '/alias': { $ref: '#/paths/~1pets' },
    },
  });

  it('lists each operation with its method, path template, id (made up when it has none) and pointer', () => {
    expect(listOperations(document).map(({ method, path, id, pointer }) => `${method} ${path} ${id} ${pointer}`)).toEqual([
      'get /pets list /paths/~1pets/get',
      'post /pets add /paths/~1pets/post',
      'get /pets/{id} one /paths/~1pets~1{id}/get',
      'delete /pets/{id} DELETE /pets/{id} /paths/~1pets~1{id}/delete',
      'get /alias list /paths/~1alias/get',
      'post /alias add /paths/~1alias/post',
    ]);
    expect(listOperations(document)[2]!.pathParameters).toEqual([{ name: 'id', in: 'path' }]);
  });

  it('takes the base path the servers agree on; where they disagree, none (the deployment decides)', () => {
    expect(basePathOf(document)).toBe('/v2');
    expect(basePathOf(minimal())).toBe('');
    expect(basePathOf(minimal({ servers: [{ url: '/v1' }, { url: '/v2' }] }))).toBe('');
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

  it('reads a $ref fragment as a pointer, percent-decoded', () => {
    expect(pointerOfRef('#/paths/~1pets~1%7Bid%7D/get')).toBe('/paths/~1pets~1{id}/get');
    expect(pointerOfRef('other.yaml#/a')).toBe('/a');
  });

  it('refuses $refs left unbundled, dangling and circular', () => {
    expect(() => resolveRef(document, { $ref: 'other.yaml#/x' })).toThrow('$ref other.yaml#/x was not bundled');
    expect(() => resolveRef(document, { $ref: '#/components/parameters/Nothing' })).toThrow('points at nothing');
    const loop = minimal({ components: { schemas: { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } } } });
    expect(() => resolveRef(loop, { $ref: '#/components/schemas/A' })).toThrow('goes round in a circle');
  });
});
