import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeadlineReached, setGenerationDeadline } from '../../src/deadline.js';
import { PART_SIZE, SchemaGraph } from '../../src/generate/schema-graph.js';
import { createAjv, isValid } from '../../src/generate/schema-validator.js';
import type { Schema } from '../../src/spec/model.js';

/** How many objects a schema holds, each copy counted as Ajv compiles it (its maps and `$ref`s too). */
function objectsIn(value: unknown): number {
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + objectsIn(item), 0);
  if (value === null || typeof value !== 'object') return 0;
  return 1 + Object.values(value).reduce((sum: number, item) => sum + objectsIn(item), 0);
}

/**
 * A schema that explodes when inlined, as a spreadsheet API's batch request does: five objects,
 * each the eight properties of the one above, 4,681 schema objects once written out.
 */
function exploding(maxLength = 3): Schema[] {
  const levels: Schema[] = [{ type: 'string', maxLength }];
  for (let depth = 0; depth < 4; depth++) {
    const below = levels[0]!;
    levels.unshift({ type: 'object', properties: Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`p${index}`, below])) });
  }
  return levels;
}

/** A value of the exploding schema, `leaf` at every string. */
function valueOf(depth: number, leaf: unknown): unknown {
  if (depth === 4) return leaf;
  return Object.fromEntries(Array.from({ length: 8 }, (_, index) => [`p${index}`, valueOf(depth + 1, leaf)]));
}

/** The schemas handed to Ajv (to compile or to register) while `work` runs. */
function schemasGivenToAjv(work: () => void): unknown[] {
  const compile = vi.spyOn(Ajv2020.prototype, 'compile');
  const addSchema = vi.spyOn(Ajv2020.prototype, 'addSchema');
  try {
    work();
    return [...compile.mock.calls, ...addSchema.mock.calls].map(([schema]) => schema);
  } finally {
    compile.mockRestore();
    addSchema.mockRestore();
  }
}

afterEach(() => setGenerationDeadline(undefined));

describe('compiling inlined schemas in parts', () => {
  it('judges a schema that explodes when inlined, and then each of its subschemas, compiling no part larger than PART_SIZE', () => {
    const levels = exploding();
    const given = schemasGivenToAjv(() => {
      expect(isValid(levels[0]!, valueOf(0, 'abc'))).toBe(true);
      expect(isValid(levels[0]!, valueOf(0, 'abcd'))).toBe(false);
      for (const [depth, level] of levels.entries()) {
        expect(isValid(level, valueOf(depth, 'a'))).toBe(true);
        expect(isValid(level, valueOf(depth, 7))).toBe(false);
      }
    });
    const sizes = given.map(objectsIn);
    // A part's schema objects, with its property maps and `$ref`s to the parts below.
    expect(Math.max(...sizes)).toBeLessThanOrEqual(2 * PART_SIZE);
    // Each object is compiled in about one part, not once per schema that holds it (5,349 in all).
    expect(sizes.reduce((sum, size) => sum + size, 0)).toBeLessThanOrEqual(500);
  });

  it('asks the deadline before each part: a budget that ends mid-compile stops it, and the next judging finishes it', () => {
    // Its own leaf: a part of the same text compiled by an earlier test would not be compiled again.
    const [root] = exploding(4);
    let clock = 0;
    const now = vi.spyOn(performance, 'now').mockImplementation(() => (clock += 1));
    try {
      setGenerationDeadline(clock + 2);
      expect(() => isValid(root!, {})).toThrow(DeadlineReached);
    } finally {
      now.mockRestore();
      setGenerationDeadline(undefined);
    }
    expect(isValid(root!, valueOf(0, 'abcd'))).toBe(true);
    expect(isValid(root!, valueOf(0, null))).toBe(false);
  });

  it('keeps what one compile judges when every object is a part of its own: unevaluatedProperties, oneOf, items, refusals', () => {
    const graph = new SchemaGraph(createAjv({ firstError: true }), 1);
    const closed = graph.validator({
      allOf: [{ properties: { a: { type: 'integer' } } }],
      oneOf: [{ required: ['a'] }, { required: ['b'] }],
      properties: { b: { type: 'array', items: { enum: ['x'] } } },
      unevaluatedProperties: false,
    });
    expect(closed({ a: 1 })).toBe(true);
    expect(closed({ b: ['x'] })).toBe(true);
    expect(closed({ a: 1, b: ['x'] })).toBe(false);
    expect(closed({ a: 1, c: 2 })).toBe(false);
    expect(closed({ b: ['y'] })).toBe(false);
    expect(closed({ a: 'one' })).toBe(false);
    const refused = { type: 'object', properties: { t: { type: 'string', pattern: 7 } } };
    expect(() => graph.validator(refused)).toThrow(/pattern must be string/);
    expect(() => graph.validator({ items: refused })).toThrow(/pattern must be string/);
  });

  it('compiles equal copies of a schema once (the model copies a schema into each operation that reaches it)', () => {
    // Larger than a part: a part of its own wherever it is.
    const panel = () => ({
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: PART_SIZE + 20 }, (_, index) => [`k${index}`, { type: 'string', 'x-go-name': `K${index}` }]),
      ),
    });
    expect(isValid({ type: 'array', items: panel() }, [{ k1: 'a' }])).toBe(true);
    const again = schemasGivenToAjv(() => expect(isValid({ type: 'array', items: panel() }, [{ k1: 2 }])).toBe(false));
    expect(again).toEqual([]);
    const elsewhere = schemasGivenToAjv(() =>
      expect(isValid({ type: 'object', properties: { p: panel() } }, { p: { k2: 'b' } })).toBe(true),
    );
    // Only the new schema's own part, which calls the panel's.
    expect(elsewhere.map(objectsIn)).toEqual([3]);
  });

  it('takes copies that share an `$id` (their `$ref`s resolved, it names nothing)', () => {
    const named = { $id: 'https://example.test/pet', type: 'object', required: ['name'] };
    expect(isValid({ type: 'array', items: named }, [{ name: 'a' }])).toBe(true);
    expect(isValid({ type: 'array', items: { ...named } }, [{}])).toBe(false);
  });
});
