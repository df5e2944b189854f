import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeadlineReached, setGenerationDeadline } from '../../src/deadline.js';
import { isValid } from '../../src/generate/schema-validator.js';
import { inlineSchema, type Schema } from '../../src/spec/model.js';
import {
  codePointLength,
  integerRange,
  isNoncharacter,
  MAX_GENERATED_PATTERN,
  mergeAllOf,
  pick,
  textUnit,
  UnmakeableValue,
  validValue,
} from '../../src/generate/valid-values.js';
import { petStoreDocument } from '../support/pet-store.js';

// fast-check's pattern generator, counted (an ES module's exports cannot be spied on).
const built = vi.hoisted(() => ({ patterns: [] as string[] }));
vi.mock('fast-check', async (importOriginal) => {
  const real = await importOriginal<typeof import('fast-check')>();
  const stringMatching: typeof real.stringMatching = (pattern, constraints) => {
    built.patterns.push(pattern.source);
    return real.stringMatching(pattern, constraints);
  };
  return { ...real, stringMatching, default: { ...real.default, stringMatching } };
});

const document = petStoreDocument();
const component = (name: string) => inlineSchema(document, { $ref: `#/components/schemas/${name}` });

function sample(schema: Schema, numRuns = 300): unknown[] {
  return fc.sample(validValue(schema), { numRuns, seed: 42 });
}

describe('valid values from a schema', () => {
  const schemas: Record<string, Schema> = {
    'NewPet (openapi.yaml)': component('NewPet'),
    'Pet (openapi.yaml)': component('Pet'),
    'the cursor pattern': { type: 'string', minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' },
    'a number with exclusive bounds': { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 },
    'multiples of 5': { type: 'integer', minimum: 3, maximum: 40, multipleOf: 5 },
    'an array of unique enums': { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 3, uniqueItems: true },
    'oneOf with a base': {
      type: 'object',
      required: ['kind'],
      oneOf: [{ properties: { kind: { const: 'a' } } }, { properties: { kind: { const: 'b' } } }],
    },
    'allOf merged': {
      allOf: [
        { type: 'object', required: ['a'], properties: { a: { type: 'boolean' } } },
        { required: ['b'], properties: { b: { type: 'null' } } },
      ],
    },
    'nullable types': { type: ['string', 'null'], maxLength: 3 },
    'a pattern with a lookahead': { type: 'string', minLength: 1, maxLength: 8, pattern: '^(?!.*x)[a-z]+$' },
    formats: {
      type: 'object',
      required: ['at', 'id'],
      properties: { at: { type: 'string', format: 'date-time' }, id: { type: 'string', format: 'uuid' } },
    },
  };
  for (const [name, schema] of Object.entries(schemas)) {
    it(`are valid: ${name}`, () => {
      for (const value of sample(schema)) expect(isValid(schema, value), JSON.stringify(value)).toBe(true);
    });
  }

  it('are one arbitrary per schema object, made once however often asked (a body of hundreds of properties asks per site)', () => {
    const schema: Schema = { type: 'object', properties: { a: { type: 'string', pattern: '^[a-z]{3}$' } } };
    expect(validValue(schema)).toBe(validValue(schema));
    expect(validValue(schema, { ascii: true })).toBe(validValue(schema, { ascii: true }));
    expect(validValue(schema, { ascii: true })).not.toBe(validValue(schema));
  });

  it('reach the bounds of integers and lengths, not only the middle', () => {
    const limits = sample({ type: 'integer', minimum: 1, maximum: 100 });
    expect(limits).toContain(1);
    expect(limits).toContain(100);
    const names = sample(component('PetName')).map((name) => codePointLength(name as string));
    expect(names).toContain(1);
    expect(names).toContain(100);
  });

  it('make int64 values over the whole 64-bit range, exact past 2^53', () => {
    const values = fc.sample(validValue({ type: 'integer', format: 'int64' }), { numRuns: 300, seed: 5 });
    expect(values.some((value) => typeof value === 'bigint' && value > 2n ** 53n)).toBe(true);
    expect(values).toContain(2n ** 63n - 1n);
    expect(values).toContain(-(2 ** 63));
    for (const value of values) expect(isValid({ type: 'integer', format: 'int64' }, value), String(value)).toBe(true);
  });

  it('take int64 ids from the whole range the spec allows (PetId: a maximum of 2^53 - 1)', () => {
    const ids = sample(component('PetId')) as number[];
    expect(Math.max(...ids)).toBeGreaterThan(2 ** 40);
    expect(ids).toContain(2 ** 53 - 1);
  });

  it('write text beyond ASCII, but never NUL, a surrogate or a noncharacter', () => {
    const units = fc.sample(textUnit, { numRuns: 2000, seed: 3 });
    expect(units.some((unit) => unit.codePointAt(0)! > 0xffff)).toBe(true);
    expect(units.some((unit) => unit === '\u0000' || /[\ud800-\udfff]/u.test(unit) || isNoncharacter(unit.codePointAt(0)!))).toBe(false);
  });

  it('count lengths in code points, as JSON Schema does', () => {
    expect(codePointLength('a😀b')).toBe(3);
  });

  it('read integer ranges from bounds, exclusive bounds and the format', () => {
    expect(integerRange({ type: 'integer', format: 'int32' })).toEqual({ min: -(2n ** 31n), max: 2n ** 31n - 1n });
    expect(integerRange({ type: 'integer', exclusiveMinimum: 0, exclusiveMaximum: 10 })).toEqual({ min: 1n, max: 9n });
    expect(integerRange({ type: 'integer', minimum: 0.5, maximum: 9.5 })).toEqual({ min: 1n, max: 9n });
  });

  it('pick shrinks through the list, not straight to its first value', () => {
    const details = fc.check(
      fc.property(pick(1, 2, 3, 4), (value) => value < 3),
      { seed: 1 },
    );
    expect(details.counterexample).toEqual([3]);
  });

  it('make finite values of recursive schemas: an optional part past the cut left out, a list left empty, the other branch taken', () => {
    const spec = {
      ...document,
      components: {
        schemas: {
          Tree: {
            type: 'object',
            required: ['children'],
            properties: {
              name: { type: 'string' },
              parent: { $ref: '#/components/schemas/Tree' },
              children: { type: 'array', items: { $ref: '#/components/schemas/Tree' } },
            },
          },
          List: {
            oneOf: [{ type: 'null' }, { type: 'object', required: ['next'], properties: { next: { $ref: '#/components/schemas/List' } } }],
          },
          Loop: { type: 'object', required: ['self'], properties: { self: { $ref: '#/components/schemas/Loop' } } },
        },
      },
    };
    for (const name of ['Tree', 'List']) {
      const schema = inlineSchema(spec, { $ref: `#/components/schemas/${name}` });
      const full = spec.components.schemas[name as 'Tree'];
      for (const value of fc.sample(validValue(schema), { numRuns: 100, seed: 6 }))
        expect(isValid({ ...full, components: spec.components }, value)).toBe(true);
    }
    // A schema with no finite value at all: said, not looped on.
    expect(() => fc.sample(validValue(inlineSchema(spec, { $ref: '#/components/schemas/Loop' })), { numRuns: 1, seed: 1 })).toThrow(
      UnmakeableValue,
    );
  });

  it('merge allOf parts: properties and required joined', () => {
    expect(
      mergeAllOf({
        allOf: [
          { properties: { a: {} }, required: ['a'] },
          { properties: { b: {} }, required: ['b'] },
        ],
        description: 'x',
      }),
    ).toEqual({
      description: 'x',
      properties: { a: {}, b: {} },
      required: ['a', 'b'],
    });
    // A name both parts require is required once: the merged schema is one Ajv compiles.
    const twice = mergeAllOf({ allOf: [{ required: ['id', 'a'] }, { required: ['id'] }] });
    expect(twice['required']).toEqual(['id', 'a']);
    expect(isValid(twice, { id: 1, a: 2 })).toBe(true);
  });

  it("leave out, naming it, what no value can be made of: the schema false, a type that is not JSON Schema's (never a crash)", () => {
    expect(() => sample(false as unknown as Schema, 1)).toThrow(UnmakeableValue);
    expect(() => sample({ type: 'application/json' }, 1)).toThrow(/type "application\/json", which is not a JSON Schema type/);
    expect(() => sample({ type: 'object', required: ['gone'], properties: { gone: false } }, 5)).toThrow(UnmakeableValue);
    expect(sample(true as unknown as Schema, 5)).toHaveLength(5);
  });
});

describe('valid text of a pattern, within the budget', () => {
  afterEach(() => setGenerationDeadline(undefined));

  // A list of names under a repetition, as a chart API's font parameter has (22,190 characters).
  const names = Array.from({ length: 300 }, (_, index) => `Font ${index}`);
  const long = `^(?:${names.join('|')}|[ -~])*$`;

  it("is made without fast-check's generator from a pattern too long to build one from in time, and only where it matches", () => {
    expect(long.length).toBeGreaterThan(MAX_GENERATED_PATTERN);
    const texts = fc.sample(validValue({ type: 'string', maxLength: 20, pattern: long }), { numRuns: 100, seed: 1 });
    expect(built.patterns).not.toContain(long);
    for (const text of texts) expect(text).toMatch(new RegExp(long, 'u'));
  });

  it("are not made once the budget is spent, schema object by schema object (a batch request's thousands)", () => {
    setGenerationDeadline(performance.now() - 1);
    expect(() => validValue({ type: 'object', properties: { budget: { type: 'integer', minimum: 7 } } })).toThrow(DeadlineReached);
  });

  it('is not built once the budget is spent: the build is one call no check can interrupt', () => {
    const pattern = '^[a-z]{2}-budget-[0-9]+$';
    setGenerationDeadline(performance.now() - 1);
    expect(() => validValue({ type: 'string', pattern })).toThrow(DeadlineReached);
    expect(built.patterns).not.toContain(pattern);
    setGenerationDeadline(undefined);
    validValue({ type: 'string', pattern });
    expect(built.patterns).toContain(pattern);
  });
});
