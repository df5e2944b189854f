import { describe, expect, it } from 'vitest';
import { basePathOf, listOperations } from '../src/document.js';
import { minimal } from './support/minimal.js';

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

  it("takes the base path the servers agree on, '' without servers; where they disagree, refuses or answers none as asked", () => {
    for (const onDisagreement of ['refuse', 'none'] as const) {
      expect(basePathOf(document, { onDisagreement })).toBe('/v2');
      expect(basePathOf(minimal(), { onDisagreement })).toBe('');
      expect(basePathOf(minimal({ servers: [] }), { onDisagreement })).toBe('');
    }
    const portVariable = minimal({ servers: [{ url: 'https://{hostname}:{port}/tsws/10.0/api/' }, { url: '/tsws/10.0/api/' }] });
    expect(basePathOf(portVariable, { onDisagreement: 'refuse' })).toBe('/tsws/10.0/api');
    expect(basePathOf(minimal({ servers: [{ url: 'https://a.test' }] }), { onDisagreement: 'refuse' })).toBe('');
    const disagreeing = minimal({ servers: [{ url: '/v1' }, { url: 'https://a.test/v2/' }] });
    expect(basePathOf(disagreeing, { onDisagreement: 'none' })).toBe('');
    expect(() => basePathOf(disagreeing, { onDisagreement: 'refuse' })).toThrow('servers disagree on the base path: /v1, /v2');
  });
});
