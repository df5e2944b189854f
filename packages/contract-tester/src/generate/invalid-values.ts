import fc from 'fast-check';
import { rethrowDeadline } from '../deadline.js';
import { keepWhere } from './bounded-filter.js';
import { FORMATS } from './formats.js';
import { jsonText, RawJson, type JsonValue } from './json-text.js';
import { isValid } from './schema-validator.js';
import { DISCRIMINATOR_VALUES } from '../spec/discriminator.js';
import type { Schema } from '../spec/model.js';
import {
  codePointLength,
  lengthBounds,
  MAX_MADE_ITEMS,
  MAX_MADE_LENGTH,
  patternOf,
  pick,
  textOfLength,
  typesOf,
  validValue,
} from './valid-values.js';

/** The rules a negative case breaks, one per case. */
/**
 * A required header parameter left out: a case of 'missing required' named apart, for the check it
 * has of its own (missing_required_header).
 */
export const MISSING_HEADER = 'missing required header';

export const RULES = [
  'wrong type',
  'out of bounds',
  'missing required',
  'extra property',
  'bad enum value',
  'bad format',
  'bad pattern',
  'non-canonical number',
  'badly encoded text',
] as const;
export type Rule = (typeof RULES)[number];

/** A value that breaks one rule of a schema, and which. */
export interface BrokenValue {
  value: JsonValue;
  why: string;
}

/** Whether the arbitrary can make any value at all within a few tries: its rule applies to the schema. */
function canMake<T>(arbitrary: fc.Arbitrary<T>): boolean {
  try {
    return fc.sample(arbitrary, { numRuns: 5, seed: 1 }).length > 0;
  } catch (error) {
    rethrowDeadline(error);
    return false;
  }
}

const quoted = (value: unknown) => (value instanceof RawJson ? value.display : jsonText(value));

/** Keeps only values the schema refuses (unless they are raw text, which no parser reads as the schema wants). */
function refused(schema: Schema, arbitrary: fc.Arbitrary<JsonValue>): fc.Arbitrary<JsonValue> {
  return keepWhere(arbitrary, (value) => value instanceof RawJson || !isValid(schema, value), 'a value its schema refuses');
}

function declaredBound(schema: Schema, keyword: string): number | undefined {
  return typeof schema[keyword] === 'number' ? schema[keyword] : undefined;
}

/** Out of bounds for a number: just past each declared bound, and far past (1e400 is beyond any double). */
function numbersOutOfBounds(schema: Schema): fc.Arbitrary<BrokenValue> | undefined {
  const integer = typesOf(schema).includes('integer');
  const texts: string[] = [];
  const low = declaredBound(schema, 'minimum') ?? declaredBound(schema, 'exclusiveMinimum');
  const high = declaredBound(schema, 'maximum') ?? declaredBound(schema, 'exclusiveMaximum');
  if (low !== undefined) {
    const below = 'minimum' in schema ? (integer ? BigInt(Math.ceil(low)) - 1n : undefined) : BigInt(Math.floor(low));
    texts.push(below !== undefined ? String(below) : String(low - Math.max(1e-9, Math.abs(low) * 1e-12)), '-1e400');
  }
  if (high !== undefined) {
    const above = 'maximum' in schema ? (integer ? BigInt(Math.floor(high)) + 1n : undefined) : BigInt(Math.ceil(high));
    texts.push(above !== undefined ? String(above) : String(high + Math.max(1e-9, Math.abs(high) * 1e-12)), '1e400', `${high}0`);
  }
  if (!texts.length) return undefined;
  return pick(...texts).map((text) => ({ value: RawJson.text(text), why: `${text} is out of bounds` }));
}

/**
 * Strings just too short or too long. They are cut from or repeat a valid string, so that they still
 * keep to the pattern where one allows it and only the length is wrong.
 */
function stringsOutOfBounds(schema: Schema): fc.Arbitrary<BrokenValue> | undefined {
  const { min, declaredMax } = lengthBounds(schema);
  const valid = keepWhere(validValue(schema), (value): value is string => typeof value === 'string', 'a valid string');
  const options: fc.Arbitrary<string>[] = [];
  if (min > 0) options.push(fc.tuple(valid, fc.nat(min - 1)).map(([text, length]) => [...text].slice(0, length).join('')));
  if (declaredMax !== undefined && declaredMax < MAX_MADE_LENGTH) {
    options.push(
      fc.tuple(valid, fc.integer({ min: 1, max: 8 })).map(([text, over]) => {
        const unit = text || 'a';
        return [...unit.repeat(Math.ceil((declaredMax + over) / codePointLength(unit)))].slice(0, declaredMax + over).join('');
      }),
    );
  }
  if (!options.length) return undefined;
  return fc.oneof(...options).map((text) => ({ value: text, why: `${codePointLength(text)} characters is out of bounds` }));
}

function arraysOutOfBounds(schema: Schema): fc.Arbitrary<BrokenValue> | undefined {
  const item = validValue((schema['items'] as Schema | undefined) ?? {}) as fc.Arbitrary<JsonValue>;
  const options: fc.Arbitrary<JsonValue[]>[] = [];
  const minItems = declaredBound(schema, 'minItems');
  const maxItems = declaredBound(schema, 'maxItems');
  if (minItems !== undefined && minItems > 0) options.push(fc.array(item, { maxLength: minItems - 1 }));
  if (maxItems !== undefined && maxItems < MAX_MADE_ITEMS)
    options.push(fc.array(item, { minLength: maxItems + 1, maxLength: maxItems + 3 }));
  if (!options.length) return undefined;
  return fc.oneof(...options).map((items) => ({ value: items, why: `${items.length} items is out of bounds` }));
}

function wrongType(schema: Schema): fc.Arbitrary<BrokenValue> | undefined {
  const types = typesOf(schema);
  const candidates: fc.Arbitrary<JsonValue>[] = [pick<JsonValue>(null, true, false, 0, 7, 1.5, 'text', '', [], {}, [1], { a: 1 })];
  // The usual coercions: a number written as a string, a string that looks like a boolean.
  if (types.includes('integer') || types.includes('number')) candidates.push(validValue(schema).map((value) => String(value)));
  if (types.includes('boolean')) candidates.push(pick<JsonValue>('true', 'false', 1, 0));
  const arbitrary = refused(
    schema,
    keepWhere(fc.oneof(...candidates), (value) => !types.length || !types.some((type) => hasType(value, type)), 'a value of another type'),
  );
  return canMake(arbitrary) ? arbitrary.map((value) => ({ value, why: `${quoted(value)} has the wrong type` })) : undefined;
}

export function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number';
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return value !== null && typeof value === 'object' && !Array.isArray(value) && !(value instanceof RawJson);
    default:
      return typeof value === type;
  }
}

function badEnum(schema: Schema): fc.Arbitrary<BrokenValue> | undefined {
  const values = schema['enum'] ?? ('const' in schema ? [schema['const']] : undefined);
  if (!Array.isArray(values)) return undefined;
  const strings = values.filter((value): value is string => typeof value === 'string');
  const candidates: fc.Arbitrary<JsonValue>[] = [textOfLength(0, 12)];
  if (strings.length) {
    candidates.push(
      fc
        .tuple(pick(...strings), pick('upper', 'capital', 'space', 'suffix'))
        .map(([value, how]) =>
          how === 'upper'
            ? value.toUpperCase()
            : how === 'capital'
              ? value.charAt(0).toUpperCase() + value.slice(1)
              : how === 'space'
                ? ` ${value}`
                : `${value}x`,
        ),
    );
  }
  if (values.some((value) => typeof value === 'number')) candidates.push(fc.integer({ min: -1000, max: 1000 }));
  // A discriminator's value that names another branch: the mix-up a server must catch.
  const others = otherDiscriminatorValues(schema, values);
  if (others.length) candidates.push(pick(...others), pick(...others));
  const arbitrary = keepWhere(
    fc.oneof(...candidates),
    (value) => !values.includes(value) && values.some((member) => typeof member === typeof value),
    'a value outside the enum',
  );
  return canMake(arbitrary) ? arbitrary.map((value) => ({ value, why: `${quoted(value)} is not one of the allowed values` })) : undefined;
}

/** The values of the discriminator a property is, beside its own (see spec/discriminator.ts). */
export function otherDiscriminatorValues(schema: Schema, values: readonly unknown[]): string[] {
  const all = schema[DISCRIMINATOR_VALUES];
  return Array.isArray(all) ? all.filter((value): value is string => typeof value === 'string' && !values.includes(value)) : [];
}

function badFormat(schema: Schema): fc.Arbitrary<BrokenValue> | undefined {
  const format = typeof schema['format'] === 'string' ? FORMATS[schema['format']] : undefined;
  if (!format) return undefined;
  if (format.range) {
    const { min, max } = format.range;
    const texts = [String(max + 1n), String(max + 2n), String(min - 2n), String(max * 2n ** 11n)];
    return pick(...texts).map((text) => ({ value: RawJson.text(text), why: `${text} is not a ${String(schema['format'])}` }));
  }
  if (!format.invalid?.length) return undefined;
  return pick(...format.invalid).map((text) => ({ value: text, why: `${JSON.stringify(text)} is not a ${String(schema['format'])}` }));
}

const WHITE_SPACE = pick(' ', '\t', '\n', '\r', '\u00a0', '\u3000', '\u2003');

function badPattern(schema: Schema): fc.Arbitrary<BrokenValue> | undefined {
  const pattern = patternOf(schema);
  if (!pattern) return undefined;
  const { min, max } = lengthBounds(schema);
  const arbitrary = keepWhere(
    fc.oneof(fc.string({ unit: WHITE_SPACE, minLength: Math.max(min, 1), maxLength: Math.max(min, 1) + 3 }), textOfLength(min, max)),
    (text) => !pattern.test(text) && codePointLength(text) >= min && codePointLength(text) <= max,
    `a text not matching ${pattern.source}`,
  );
  return canMake(arbitrary)
    ? arbitrary.map((value) => ({ value, why: `${JSON.stringify(value)} does not match ${pattern.source}` }))
    : undefined;
}

/**
 * JSON number texts that are not the number they seem: not JSON at all (`+1`, `01`, `0x1`, `.5`,
 * `1.`, `Infinity`, `NaN`), or, for integers, a fraction JSON.parse rounds to an integer.
 */
function nonCanonicalJsonNumber(schema: Schema): fc.Arbitrary<BrokenValue> | undefined {
  const types = typesOf(schema);
  const integer = types.includes('integer');
  if (!integer && !types.includes('number')) return undefined;
  const valid = keepWhere(
    validValue(schema),
    (value): value is number | bigint =>
      (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) || (typeof value === 'bigint' && value >= 0n),
    'a valid whole number',
  );
  return fc
    .tuple(valid, pick('plus', 'zero', 'hex', 'dot', 'trailing dot', 'infinity', 'nan', ...(integer ? ['tiny fraction'] : [])))
    .map(([value, how]) => {
      const text =
        how === 'plus'
          ? `+${value}`
          : how === 'zero'
            ? `0${value}`
            : how === 'hex'
              ? `0x${value.toString(16)}`
              : how === 'dot'
                ? `.${value}`
                : how === 'trailing dot'
                  ? `${value}.`
                  : how === 'infinity'
                    ? 'Infinity'
                    : how === 'nan'
                      ? 'NaN'
                      : `${value}.0000000000000001`;
      return { value: RawJson.text(text), why: `${text} is not ${how === 'tiny fraction' ? 'an integer' : 'a JSON number'}` };
    });
}

/** Bytes that are not UTF-8: overlong, lone continuation, Latin-1, CESU-8 surrogate, truncated, beyond U+10FFFF. */
export const INVALID_UTF8: ReadonlyArray<readonly number[]> = [
  [0xff],
  [0xc0, 0xaf],
  [0x80],
  [0xe9],
  [0xed, 0xa0, 0x80],
  [0xe2, 0x82],
  [0xf4, 0x90, 0x80, 0x80],
];

/** Text JSON can carry that is not Unicode text the service can store: lone surrogates, NUL. */
export const BAD_CODE_UNITS = ['\ud800', '\udfff', '\udc00\ud800', '\u0000'];

const jsonStringInner = (text: string) => JSON.stringify(text).slice(1, -1);

/** A valid string with one code point replaced by a bad code unit or by bytes that are not UTF-8. */
function badText(schema: Schema): fc.Arbitrary<BrokenValue> | undefined {
  if (!typesOf(schema).includes('string') || 'enum' in schema || 'const' in schema) return undefined;
  const valid = keepWhere(validValue(schema), (value): value is string => typeof value === 'string', 'a valid string');
  if (!canMake(valid)) return undefined;
  const bad = fc.oneof(pick(...BAD_CODE_UNITS), pick(...INVALID_UTF8.map((bytes) => Buffer.from(bytes))));
  return fc.tuple(valid, fc.nat(), bad).map(([text, at, unit]) => {
    const chars = [...text];
    const index = chars.length ? at % chars.length : 0;
    const before = chars.slice(0, index).join('');
    const after = chars.slice(index + 1).join('');
    if (typeof unit === 'string') {
      return { value: before + unit + after, why: `${JSON.stringify(unit)} is not Unicode text` };
    }
    const bytes = Buffer.concat([Buffer.from(`"${jsonStringInner(before)}`), unit, Buffer.from(`${jsonStringInner(after)}"`)]);
    const hex = [...unit].map((byte) => `\\x${byte.toString(16).padStart(2, '0')}`).join('');
    return { value: new RawJson(bytes, `"${jsonStringInner(before)}${hex}${jsonStringInner(after)}"`), why: `bytes ${hex} are not UTF-8` };
  });
}

/**
 * Values that break one rule of a schema (its own keywords: not those of its properties or items,
 * which are sites of their own), or undefined where the rule does not apply to it. Object rules
 * (missing required, extra property) work on the object, so they are the caller's.
 */
export function brokenValues(schema: Schema, rule: Rule): fc.Arbitrary<BrokenValue> | undefined {
  const types = typesOf(schema);
  switch (rule) {
    case 'wrong type':
      return types.length ? wrongType(schema) : undefined;
    case 'out of bounds': {
      const options = [
        types.some((type) => type === 'integer' || type === 'number') ? numbersOutOfBounds(schema) : undefined,
        types.includes('string') ? stringsOutOfBounds(schema) : undefined,
        types.includes('array') ? arraysOutOfBounds(schema) : undefined,
      ].filter((option): option is fc.Arbitrary<BrokenValue> => option !== undefined);
      return options.length ? fc.oneof(...options) : undefined;
    }
    case 'bad enum value':
      return badEnum(schema);
    case 'bad format':
      return badFormat(schema);
    case 'bad pattern':
      return badPattern(schema);
    case 'non-canonical number':
      return nonCanonicalJsonNumber(schema);
    case 'badly encoded text':
      return badText(schema);
    case 'missing required':
    case 'extra property':
      return undefined;
  }
}
