import { describe, expect, it } from 'vitest';
import { containsRaw, encodeJson, jsonEqual, RawJson } from '../../src/generate/json-text.js';

describe('JSON text with raw pieces', () => {
  it('writes plain values as JSON.stringify does', () => {
    const value = { name: 'Rex', categoryId: 3, tags: [true, null, 1.5], nested: { a: 'é' } };
    expect(encodeJson(value).toString('utf8')).toBe(JSON.stringify(value));
  });

  it('writes raw pieces byte for byte, where JSON.stringify cannot', () => {
    const bytes = encodeJson({ id: RawJson.text('9007199254740993'), name: new RawJson(Buffer.from([0x22, 0xff, 0x22])) });
    expect([...bytes]).toEqual([...Buffer.from('{"id":9007199254740993,"name":"'), 0xff, 0x22, 0x7d]);
  });

  it('escapes lone surrogates and NUL as JSON escapes', () => {
    expect(encodeJson(['\ud800', '\u0000']).toString('latin1')).toBe('["\\ud800","\\u0000"]');
  });

  it('tells raw pieces apart', () => {
    expect(containsRaw({ a: [1, { b: RawJson.text('+1') }] })).toBe(true);
    expect(containsRaw({ a: [1, { b: '+1' }] })).toBe(false);
  });

  it('compares parsed JSON deeply, property order aside', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: 'x' }] }, { b: [1, { c: 'x' }], a: 1 })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual(null, {})).toBe(false);
  });
});
