import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { brokenValues, hasType, RULES, type BrokenValue, type Rule } from '../../src/generate/invalid-values.js';
import { RawJson } from '../../src/generate/json-text.js';
import { isValid } from '../../src/generate/schema-validator.js';
import { inlineSchema, type Schema } from '../../src/spec/model.js';
import { petStoreDocument } from '../support/pet-store.js';

const document = petStoreDocument();
const component = (name: string) => inlineSchema(document, { $ref: `#/components/schemas/${name}` });

function sample(schema: Schema, rule: Rule, numRuns = 200): BrokenValue[] {
  const arbitrary = brokenValues(schema, rule);
  if (!arbitrary) throw new Error(`${rule} does not apply`);
  return fc.sample(arbitrary, { numRuns, seed: 11 });
}

const texts = (values: BrokenValue[]) =>
  new Set(values.map(({ value }) => (value instanceof RawJson ? value.display : JSON.stringify(value))));

describe('values that break one rule of a schema', () => {
  const petName = component('PetName');
  const petId = component('PetId');
  const petStatus = component('PetStatus');

  it('apply where the schema has the rule, and nowhere else', () => {
    const applies = (schema: Schema) => RULES.filter((rule) => brokenValues(schema, rule) !== undefined);
    expect(applies(petName)).toEqual(['wrong type', 'out of bounds', 'bad pattern', 'badly encoded text']);
    expect(applies(petId)).toEqual(['wrong type', 'out of bounds', 'bad format', 'non-canonical number']);
    expect(applies(petStatus)).toEqual(['wrong type', 'bad enum value']);
    expect(applies({})).toEqual([]);
  });

  it('wrong type: a JSON value of another type, the validator refuses it', () => {
    for (const { value } of sample(petId, 'wrong type')) {
      expect(hasType(value, 'integer')).toBe(false);
      expect(isValid(petId, value)).toBe(false);
    }
    expect(texts(sample(petId, 'wrong type'))).toContain('"1"');
  });

  it('out of bounds: just past each bound, and far past; strings one too short or a few too long, still matching the pattern', () => {
    expect(texts(sample(petId, 'out of bounds'))).toEqual(new Set(['0', '-1e400', '9007199254740992', '1e400', '90071992547409910']));
    for (const { value } of sample(petName, 'out of bounds')) {
      const length = [...(value as string)].length;
      const maxLength = petName.maxLength as number;
      expect(length === 0 || (length > maxLength && length <= maxLength + 8)).toBe(true);
      if (length) expect(value).toMatch(/\S/u);
    }
  });

  it('bad enum value: near misses of the allowed values, of the same type', () => {
    const values = sample(petStatus, 'bad enum value');
    for (const { value } of values) {
      expect(typeof value).toBe('string');
      expect(petStatus.enum).not.toContain(value);
    }
    expect(texts(values)).toContain('"Available"');
  });

  it('bad format: integers just past int64, as exact text', () => {
    expect(texts(sample(petId, 'bad format'))).toEqual(
      new Set(['9223372036854775808', '9223372036854775809', '-9223372036854775810', '18889465931478580852736']),
    );
  });

  it('bad pattern: text of a valid length that the pattern refuses', () => {
    for (const { value } of sample(petName, 'bad pattern')) {
      expect(value).toMatch(/^\s+$/u);
      expect(isValid(petName, value)).toBe(false);
    }
  });

  it('non-canonical number: not JSON numbers, or a fraction that parses as an integer', () => {
    const values = [...texts(sample(petId, 'non-canonical number', 400))];
    const notJson = values.filter((text) => {
      try {
        JSON.parse(text);
        return false;
      } catch {
        return true;
      }
    });
    const rounded = values.filter((text) => !notJson.includes(text));
    expect(notJson.some((text) => text.startsWith('+'))).toBe(true);
    expect(notJson.some((text) => text.startsWith('0x'))).toBe(true);
    expect(rounded.length).toBeGreaterThan(0);
    for (const text of rounded) {
      expect(text).toMatch(/^\d+\.0000000000000001$/);
      expect(Number.isInteger(JSON.parse(text))).toBe(true);
    }
  });

  it('badly encoded text: a lone surrogate, NUL, or bytes that are not UTF-8, in otherwise valid text', () => {
    const values = sample(petName, 'badly encoded text', 400);
    const strings = values.filter(({ value }) => typeof value === 'string').map(({ value }) => value as string);
    expect(strings.some((text) => /[\ud800-\udfff]/u.test(text))).toBe(true);
    expect(strings.some((text) => text.includes('\u0000'))).toBe(true);
    const raw = values.filter(({ value }) => value instanceof RawJson).map(({ value }) => (value as RawJson).bytes);
    expect(raw.length).toBeGreaterThan(0);
    for (const bytes of raw) {
      expect(bytes.toString('utf8')).toContain('\ufffd');
      expect(bytes[0]).toBe(0x22);
      expect(bytes.at(-1)).toBe(0x22);
    }
  });
});
