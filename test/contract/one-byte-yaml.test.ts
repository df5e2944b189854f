import { serialize } from 'node:v8';
import { CORE_SCHEMA, load } from 'js-yaml';
import { describe, expect, it } from 'vitest';
import { loadYamlOneByte } from '../../src/contract/one-byte-yaml.js';
import { readSpecText } from '../../src/contract/spec.js';

/** Whether V8 holds the string in its one-byte form: its serialisation tags each form apart ('"' one-byte, 'c' two-byte). */
const oneByte = (text: string) => serialize(text)[2] === 0x22;

const TEXT = `
title: Numbers beyond ±(2^53 − 1) … “quoted” and 𝔘nicode
paths:
  /cats/{catId}:
    get: { operationId: getCat, summary: 'a “cat” — by id' }
  /émoji/🐈:
    x: "escaped \\u2014 dash — and a real one"
list: [a, b — c, 3, true, null]
`;

describe('loadYamlOneByte', () => {
  it('parses to what js-yaml gives, characters beyond Latin-1 included', () => {
    expect(loadYamlOneByte(TEXT)).toEqual(load(TEXT, { schema: CORE_SCHEMA }));
    const spec = readSpecText();
    expect(loadYamlOneByte(spec)).toEqual(load(spec, { schema: CORE_SCHEMA }));
  });

  it('keeps names parsed from a text with such characters one-byte, where js-yaml alone does not', () => {
    // Read through Object.keys and values: a literal of the same text here would be the one-byte
    // original; and V8 keeps one copy of each key, so each text is parsed once.
    type Parsed = { paths: Record<string, { get: { operationId: string } }> };
    const parsed = loadYamlOneByte(TEXT.replaceAll('cat', 'bird')) as Parsed;
    expect(Object.keys(parsed.paths).map(oneByte)).toEqual([true, false]);
    expect(oneByte(Object.values(parsed.paths)[0]!.get.operationId)).toBe(true);
    // js-yaml alone: the key stays two-byte on every Node line in engines (Node 24's V8 copies some
    // short values, such as the operationId, into one-byte form by itself, so only the key is asked).
    const plain = load(TEXT.replaceAll('cat', 'dog'), { schema: CORE_SCHEMA }) as Parsed;
    expect(oneByte(Object.keys(plain.paths)[0]!)).toBe(false);
  });

  it('reports an error where the text has it, as written', () => {
    const broken = 'a: 1\nb: "— unclosed\n';
    let original: unknown;
    try {
      load(broken, { schema: CORE_SCHEMA });
    } catch (error) {
      original = (error as Error).message;
    }
    expect(() => loadYamlOneByte(broken)).toThrow(String(original));
  });

  it('parses a text that uses every marker as it is', () => {
    const text = 'a: "¤¶¦¬¸¾ — x"\n';
    expect(loadYamlOneByte(text)).toEqual({ a: '¤¶¦¬¸¾ — x' });
  });
});
