import { describe, expect, it } from 'vitest';
import {
  containsRaw,
  encodeJson,
  jsonEqual,
  jsonText,
  judgedDouble,
  parseExactJson,
  RawJson,
  validatedView,
} from '../../src/generate/json-text.js';

describe('JSON text with raw pieces', () => {
  it('writes plain values as JSON.stringify does', () => {
    const value = { name: 'Rex', categoryId: 3, tags: [true, null, 1.5], nested: { a: 'é' } };
    expect(encodeJson(value).toString('utf8')).toBe(JSON.stringify(value));
  });

  it('writes raw pieces byte for byte, where JSON.stringify cannot', () => {
    const bytes = encodeJson({ id: RawJson.text('9007199254740993'), name: new RawJson(Buffer.from([0x22, 0xff, 0x22])) });
    expect([...bytes]).toEqual([...Buffer.from('{"id":9007199254740993,"name":"'), 0xff, 0x22, 0x7d]);
  });

  it('parses integers past 2^53 exactly, and writes them back digit for digit', () => {
    const text = '{"id":9007199254740993,"big":-92233720368547758081,"safe":9007199254740992,"f":0.1,"e":1e20}';
    const value = parseExactJson(text);
    expect(value).toEqual({ id: 9007199254740993n, big: -92233720368547758081n, safe: 2 ** 53, f: 0.1, e: 1e20 });
    expect(encodeJson(value as never).toString()).toBe(text.replace('1e20', '100000000000000000000'));
    expect(jsonText(value)).toContain('"id":9007199254740993');
  });

  it('writes an integer past 2^53 held as a double as the integer it is', () => {
    expect(encodeJson({ id: -(2 ** 63), big: 2 ** 66, e: 1e21 }).toString()).toBe(
      '{"id":-9223372036854775808,"big":73786976294838206464,"e":1e+21}',
    );
    expect(jsonText({ id: -(2 ** 63) })).toBe('{"id":-9223372036854775808}');
  });

  it('keeps the last of repeated names, as JSON.parse does, and refuses what is not JSON', () => {
    expect(parseExactJson('{"a":1,"a":12345678901234567890}')).toEqual({ a: 12345678901234567890n });
    expect(() => parseExactJson('{"a":12345678901234567890')).toThrow();
  });

  it('gives a validator a double on the right side of each 64-bit bound', () => {
    expect(judgedDouble(2n ** 63n - 1n)).toBeLessThan(2 ** 63);
    expect(judgedDouble(2n ** 63n)).toBe(2 ** 63);
    expect(judgedDouble(2n ** 64n - 1n)).toBeLessThan(2 ** 64);
    expect(judgedDouble(2n ** 64n + 1n)).toBeGreaterThan(2 ** 64);
    expect(judgedDouble(-(2n ** 63n))).toBe(-(2 ** 63));
    expect(judgedDouble(-(2n ** 63n) - 1n)).toBeLessThan(-(2 ** 63));
    expect(validatedView({ a: [1n, 'x'], b: 2 })).toEqual({ a: [1, 'x'], b: 2 });
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
