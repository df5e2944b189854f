import { describe, expect, it } from 'vitest';
import { pointerOfRef, resolveRef, resolveRefAt, valueAtPointer } from '../src/pointer.js';
import { minimal } from './support/minimal.js';

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
    expect(() => resolveRef(document, { $ref: 'other.yaml#/x' })).toThrow('$ref other.yaml#/x is not local');
    expect(() => resolveRef(document, { $ref: '#/components/parameters/Nothing' })).toThrow('points at nothing');
    const loop = minimal({ components: { schemas: { A: { $ref: '#/components/schemas/B' }, B: { $ref: '#/components/schemas/A' } } } });
    expect(() => resolveRef(loop, { $ref: '#/components/schemas/A' })).toThrow('goes round in a circle');
  });
});
