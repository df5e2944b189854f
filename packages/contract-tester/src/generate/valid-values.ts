import fc from 'fast-check';
import { keepWhere, UnmakeableValue } from './bounded-filter.js';
import { FORMATS } from './formats.js';
import { jsonText } from './json-text.js';
import { sampledPropertyClasses } from './unicode-classes.js';
import { checkDeadline, rethrowDeadline } from '../deadline.js';
import { goesOtherWay } from '../spec/directions.js';
import { isDiscriminatorProperty } from '../spec/discriminator.js';
import { isRecursionCut, type Schema } from '../spec/model.js';

/**
 * Characters of valid text: mostly printable ASCII, with white space, JSON's escapes, and any other
 * Unicode scalar value. Never NUL, a surrogate or a noncharacter: I-JSON (RFC 7493) excludes the
 * last two and the service refuses NUL, so those are the "badly encoded text" negative cases.
 */
const codePoint = fc
  .integer({ min: 1, max: 0x10ffff })
  .filter((cp) => (cp < 0xd800 || cp > 0xdfff) && !isNoncharacter(cp))
  .map((cp) => String.fromCodePoint(cp));

export function isNoncharacter(cp: number): boolean {
  return (cp >= 0xfdd0 && cp <= 0xfdef) || (cp & 0xfffe) === 0xfffe;
}

export const textUnit: fc.Arbitrary<string> = fc.oneof(
  { withCrossShrink: true },
  { weight: 8, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 1, arbitrary: fc.constantFrom(' ', '\t', '\n', '"', '\\', '/', 'é', '\u00a0', '\u2028', '\u{1f600}', 'ß', '中') },
  { weight: 1, arbitrary: codePoint },
);

/**
 * One of the values, shrinking through the list towards the first (fc.constantFrom only tries the
 * first): list them simplest first.
 */
export function pick<T>(...values: T[]): fc.Arbitrary<T> {
  return fc.nat(values.length - 1).map((index) => values[index]!);
}

/** JSON Schema counts a string's length in code points, not UTF-16 units. */
export function codePointLength(text: string): number {
  return [...text].length;
}

/** The longest string generated where a schema sets no maxLength. */
const DEFAULT_MAX_LENGTH = 40;

/**
 * The longest text, and the most items, generated where a schema allows more (AWS documents allow
 * texts of 6 million characters): a value that size takes seconds to make, memory, and a body no
 * server reads whole. Values past it are left to a schema's minimum, which must be met.
 */
export const MAX_MADE_LENGTH = 4096;
export const MAX_MADE_ITEMS = 1000;

export function patternOf(schema: Schema): RegExp | undefined {
  return typeof schema['pattern'] === 'string' ? new RegExp(schema['pattern'], 'u') : undefined;
}

export function lengthBounds(schema: Schema): { min: number; max: number; declaredMax: number | undefined } {
  const min = typeof schema['minLength'] === 'number' ? schema['minLength'] : 0;
  const declaredMax = typeof schema['maxLength'] === 'number' ? schema['maxLength'] : undefined;
  return { min, max: declaredMax ?? Math.max(min, 0) + DEFAULT_MAX_LENGTH, declaredMax };
}

/** Text of `min` to `max` code points, made of textUnit; the exact bounds are drawn often. */
/** Printable ASCII: the text a header value can carry as itself (RFC 9110 §5.5). */
export const asciiUnit: fc.Arbitrary<string> = fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 });

export function textOfLength(min: number, max: number, unit: fc.Arbitrary<string> = textUnit): fc.Arbitrary<string> {
  max = Math.min(max, Math.max(min, MAX_MADE_LENGTH));
  const anyLength = fc.string({ unit, minLength: min, maxLength: max });
  // Cross-shrinking lets a failure found at a bound shrink to a shorter text when one fails too.
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 6, arbitrary: anyLength },
    { weight: 1, arbitrary: fc.string({ unit, minLength: min, maxLength: min }) },
    { weight: 1, arbitrary: fc.string({ unit, minLength: max, maxLength: max }) },
  );
}

const matchingCache = new Map<string, fc.Arbitrary<string>>();

/**
 * The longest pattern fast-check builds a generator from. Building one is a call no deadline
 * check can interrupt, and its cost grows faster than the pattern: each repetition tests its
 * whole body against a list of tricky strings, so a 22,190-character pattern (a chart API's list
 * of a thousand font names under a `*`) takes a second of CPU. A longer pattern's text is made
 * as an unanchored pattern's is, and kept only where the pattern matches it.
 */
export const MAX_GENERATED_PATTERN = 1000;

/**
 * fc.stringMatching, once per pattern: building one parses the pattern into arbitraries, some
 * milliseconds each, and a spec's patterns are asked for again by every rule and site of a body.
 * Built only while the budget has time left.
 */
function matching(pattern: RegExp): fc.Arbitrary<string> {
  let arbitrary = matchingCache.get(pattern.source);
  if (!arbitrary) {
    checkDeadline();
    // fast-check tries a pattern's pieces by throwing an Error for each that does not fit:
    // capturing their stack traces is most of a build's cost, and nothing reads them.
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      arbitrary = fc.stringMatching(new RegExp(sampledPropertyClasses(pattern.source), pattern.flags));
    } finally {
      Error.stackTraceLimit = limit;
    }
    if (matchingCache.size < 10_000) matchingCache.set(pattern.source, arbitrary);
  }
  return arbitrary;
}

/** How values are made: `ascii` keeps text to printable ASCII (for headers). */
export interface ValueOptions {
  ascii?: boolean;
}

function validString(schema: Schema, options: ValueOptions): fc.Arbitrary<string> {
  const { min, max } = lengthBounds(schema);
  const pattern = patternOf(schema);
  const fits = (text: string) => {
    const length = codePointLength(text);
    return length >= min && length <= max && (!pattern || pattern.test(text));
  };
  const format = typeof schema['format'] === 'string' ? FORMATS[schema['format']] : undefined;
  if (format?.type === 'string' && format.valid) return keepWhere(format.valid(), fits, `a ${String(schema['format'])} of its length`);
  // An anchored pattern says what the whole text looks like: generate from it. An unanchored one
  // (`\S`) says little: generate text of the right length and keep what matches.
  if (pattern && pattern.source.startsWith('^') && pattern.source.endsWith('$') && pattern.source.length <= MAX_GENERATED_PATTERN) {
    try {
      return keepWhere(matching(pattern), (text) => fits(text) && !/[\0\ud800-\udfff]/u.test(text), `a text matching ${pattern.source}`);
    } catch (error) {
      rethrowDeadline(error);
      // A construct fast-check cannot generate from (a lookahead): generate text and keep what matches.
    }
  }
  return keepWhere(
    textOfLength(min, max, options.ascii ? asciiUnit : textUnit),
    fits,
    `a text of ${min} to ${max} characters${pattern ? ` matching ${pattern.source}` : ''}`,
  );
}

/** The integers a schema allows, as bigints (bounds, exclusive bounds and the format's range). */
export function integerRange(schema: Schema): { min: bigint; max: bigint } {
  const range = typeof schema['format'] === 'string' ? FORMATS[schema['format']]?.range : undefined;
  let min = range?.min ?? -BigInt(Number.MAX_SAFE_INTEGER);
  let max = range?.max ?? BigInt(Number.MAX_SAFE_INTEGER);
  const bound = (keyword: string) => (typeof schema[keyword] === 'number' ? schema[keyword] : undefined);
  const minimum = bound('minimum');
  const maximum = bound('maximum');
  const exclusiveMinimum = bound('exclusiveMinimum');
  const exclusiveMaximum = bound('exclusiveMaximum');
  if (minimum !== undefined) min = bigMax(min, BigInt(Math.ceil(minimum)));
  if (exclusiveMinimum !== undefined) min = bigMax(min, BigInt(Math.floor(exclusiveMinimum)) + 1n);
  if (maximum !== undefined) max = bigMin(max, BigInt(Math.floor(maximum)));
  if (exclusiveMaximum !== undefined) max = bigMin(max, BigInt(Math.ceil(exclusiveMaximum)) - 1n);
  return { min, max };
}

const bigMax = (a: bigint, b: bigint) => (a > b ? a : b);
const bigMin = (a: bigint, b: bigint) => (a < b ? a : b);

/** An integer as JSON carries it: a number where a double holds it exactly, else a bigint. */
const exactInteger = (value: bigint): number | bigint => (BigInt(Number(value)) === value ? Number(value) : value);

function validInteger(schema: Schema): fc.Arbitrary<number | bigint> {
  const { min, max } = integerRange(schema);
  const step = typeof schema['multipleOf'] === 'number' && Number.isInteger(schema['multipleOf']) ? BigInt(schema['multipleOf']) : 1n;
  const low = min >= 0n ? (min + step - 1n) / step : min / step;
  const high = max >= 0n ? max / step : (max - step + 1n) / step;
  return fc
    .oneof(
      { withCrossShrink: true },
      { weight: 6, arbitrary: fc.bigInt({ min: low, max: high }) },
      { weight: 1, arbitrary: fc.constantFrom(low, high) },
    )
    .map((multiple) => exactInteger(multiple * step));
}

function validNumber(schema: Schema): fc.Arbitrary<number> {
  const bound = (keyword: string) => (typeof schema[keyword] === 'number' ? schema[keyword] : undefined);
  const exclusiveMin = bound('exclusiveMinimum');
  const exclusiveMax = bound('exclusiveMaximum');
  return fc.double({
    min: bound('minimum') ?? exclusiveMin ?? -Number.MAX_VALUE,
    max: bound('maximum') ?? exclusiveMax ?? Number.MAX_VALUE,
    minExcluded: exclusiveMin !== undefined && bound('minimum') === undefined,
    maxExcluded: exclusiveMax !== undefined && bound('maximum') === undefined,
    noNaN: true,
    noDefaultInfinity: true,
  });
}

function validArray(schema: Schema, options: ValueOptions): fc.Arbitrary<unknown[]> {
  const minLength = typeof schema['minItems'] === 'number' ? schema['minItems'] : 0;
  const itemSchema = (schema['items'] as Schema | undefined) ?? {};
  // Items of a recursive schema past the cut: the array stays empty, if it may.
  if (!makeable(itemSchema)) return minLength === 0 ? fc.constant([]) : unmakeable('a recursive array that may not be empty');
  const maxLength = Math.min(
    typeof schema['maxItems'] === 'number' ? schema['maxItems'] : minLength + 5,
    Math.max(minLength, MAX_MADE_ITEMS),
  );
  const items = validValue(itemSchema, options);
  return schema['uniqueItems'] === true
    ? fc.uniqueArray(items, { minLength, maxLength, selector: (item) => jsonText(item) })
    : fc.array(items, { minLength, maxLength });
}

function validObject(schema: Schema, options: ValueOptions): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema['properties'] as Record<string, Schema> | undefined) ?? {};
  // A request never carries a readOnly property (OpenAPI: it is the server's to set).
  const readOnly = (name: string) => goesOtherWay(properties[name], 'request');
  const required = new Set(((schema['required'] as string[] | undefined) ?? []).filter((name) => !readOnly(name)));
  // A discriminator's property is always given, required or not (see spec/discriminator.ts).
  const given = [
    ...required,
    ...Object.keys(properties).filter((name) => !required.has(name) && isDiscriminatorProperty(properties[name])),
  ];
  const model: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) {
    // An optional property past the cut of a recursive schema is left out.
    if (readOnly(name) || (!makeable(property) && !required.has(name))) continue;
    model[name] = validValue(property, options);
  }
  // A required property that `properties` does not describe may hold any JSON value.
  for (const name of required) model[name] ??= fc.jsonValue({ maxDepth: 1 });
  return fc.record(model, { requiredKeys: given });
}

const makeableCache = new WeakMap<Schema, boolean>();

/**
 * Whether a schema has a value the tester can make: not past the cut of a recursive schema, nor an
 * object that requires such a part, nor a list that needs items of one, nor a choice of only those.
 */
export function makeable(raw: Schema): boolean {
  if (raw === null || typeof raw !== 'object') return true;
  const known = makeableCache.get(raw);
  if (known !== undefined) return known;
  const schema = mergeAllOf(raw);
  let result = !isRecursionCut(schema);
  if (result && !('const' in schema) && !Array.isArray(schema['enum'])) {
    const branches = (schema['oneOf'] ?? schema['anyOf']) as Schema[] | undefined;
    if (Array.isArray(branches)) result = branches.some((branch) => makeable(branch));
    const properties = (schema['properties'] as Record<string, Schema> | undefined) ?? {};
    for (const name of (schema['required'] as string[] | undefined) ?? [])
      if (properties[name] && !makeable(properties[name])) result = false;
    const items = schema['items'] as Schema | undefined;
    if (items && typeof items === 'object' && typeof schema['minItems'] === 'number' && schema['minItems'] > 0 && !makeable(items))
      result = false;
  }
  makeableCache.set(raw, result);
  return result;
}

export { UnmakeableValue };

function unmakeable(what: string): fc.Arbitrary<never> {
  return fc.constant(undefined).map(() => {
    throw new UnmakeableValue(`cannot make a value of ${what}`);
  });
}

/** The JSON types a schema allows, from `type` or, without it, from the keywords it uses. */
export function typesOf(schema: Schema): string[] {
  const type = schema['type'];
  if (Array.isArray(type)) return type.map(String);
  if (typeof type === 'string') return [type];
  if ('properties' in schema || 'required' in schema) return ['object'];
  if ('items' in schema) return ['array'];
  if ('pattern' in schema || 'minLength' in schema || 'maxLength' in schema) return ['string'];
  if ('minimum' in schema || 'maximum' in schema) return ['number'];
  return [];
}

function byType(schema: Schema, type: string, options: ValueOptions): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string':
      return validString(schema, options);
    case 'integer':
      return validInteger(schema);
    case 'number': {
      const { min, max } = integerRange(schema);
      return min <= max ? fc.oneof(validInteger(schema), validNumber(schema)) : validNumber(schema);
    }
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return validArray(schema, options);
    case 'object':
      return validObject(schema, options);
    default:
      // A document's mistake (a media type written as the type): the operation is left out, naming it.
      return unmakeable(`a schema of type ${JSON.stringify(type)}, which is not a JSON Schema type`);
  }
}

/** A schema with its allOf parts merged into it (properties and required joined): what one value must keep to all of. */
export function mergeAllOf(schema: Schema): Schema {
  const { allOf, ...rest } = schema;
  if (!Array.isArray(allOf)) return schema;
  // A part past the cut of a recursive schema: the whole is past it.
  const cut = (allOf as Schema[]).find(isRecursionCut);
  if (cut) return cut;
  return (allOf as Schema[]).reduce<Schema>((merged, part) => {
    const next = mergeAllOf(part);
    return {
      ...merged,
      ...next,
      properties: { ...(merged['properties'] as object), ...(next['properties'] as object) },
      // Parts may list the same name (Ajv refuses a `required` with duplicates).
      required: [...new Set([...((merged['required'] as string[]) ?? []), ...((next['required'] as string[]) ?? [])])],
    };
  }, rest);
}

/**
 * Values valid by a JSON Schema (2020-12, as OpenAPI 3.1 uses it; `$ref`s already inlined): types,
 * const and enum, bounds and multipleOf, lengths, patterns and known formats, items, properties,
 * required and additionalProperties, allOf/oneOf/anyOf. Callers filter by a full validator as well:
 * this builds the values, the validator has the last word.
 */
export function validValue(raw: Schema, options: ValueOptions = {}): fc.Arbitrary<unknown> {
  // Once per schema object: every rule and every site of a body asks for the values of the
  // schemas on its way (a body of hundreds of properties, hundreds of times), and an arbitrary,
  // immutable, serves them all.
  const cache = options.ascii ? asciiValues : values;
  if (raw === null || typeof raw !== 'object') return makeValidValue(raw, options);
  let arbitrary = cache.get(raw);
  if (!arbitrary) cache.set(raw, (arbitrary = makeValidValue(raw, options)));
  return arbitrary;
}

const values = new WeakMap<Schema, fc.Arbitrary<unknown>>();
const asciiValues = new WeakMap<Schema, fc.Arbitrary<unknown>>();

function makeValidValue(raw: Schema, options: ValueOptions): fc.Arbitrary<unknown> {
  // Once per schema object, but a body can hold thousands (a spreadsheet API's batch request).
  checkDeadline();
  // JSON Schema's boolean schemas: `true` takes any value, `false` none.
  if ((raw as unknown) === true) return fc.jsonValue({ maxDepth: 2 });
  if (raw === null || typeof raw !== 'object') return unmakeable(`the schema ${JSON.stringify(raw)}, which no value satisfies`);
  if (isRecursionCut(raw)) return unmakeable('a recursive schema past its cut');
  const schema = mergeAllOf(raw);
  if (isRecursionCut(schema)) return unmakeable('a recursive schema past its cut');
  if ('const' in schema) return fc.constant(schema['const']);
  if (Array.isArray(schema['enum'])) return fc.constantFrom(...(schema['enum'] as unknown[]));
  const branches = (schema['oneOf'] ?? schema['anyOf']) as Schema[] | undefined;
  if (Array.isArray(branches)) {
    const { oneOf: _oneOf, anyOf: _anyOf, ...base } = schema;
    const possible = branches.filter((branch) => makeable(branch));
    if (!possible.length) return unmakeable('a recursive schema past its cut');
    return fc.oneof(...possible.map((branch) => validValue({ ...base, ...mergeAllOf(branch) }, options)));
  }
  const types = typesOf(schema);
  if (types.length === 0) return fc.jsonValue({ maxDepth: 2 });
  return fc.oneof(...types.map((type) => byType(schema, type, options)));
}
