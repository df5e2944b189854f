import type { Ajv2020 } from 'ajv/dist/2020.js';
import { checkDeadline, DeadlineReached } from '../deadline.js';
import type { Schema } from '../spec/model.js';

/** Keywords whose value is one subschema. */
const ONE = new Set([
  'additionalProperties',
  'items',
  'contains',
  'not',
  'if',
  'then',
  'else',
  'propertyNames',
  'unevaluatedProperties',
  'unevaluatedItems',
  'additionalItems',
  'contentSchema',
]);
/** Keywords whose value is a list of subschemas. */
const LIST = new Set(['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items']);
/** Keywords whose value maps names to subschemas. */
const MAP = new Set(['properties', 'patternProperties', 'dependentSchemas', 'dependencies']);

/**
 * How many schema objects one compile takes at most: some tens of milliseconds of Ajv's work on
 * the project's machine (an object of a Grafana panel's dozens of properties costs about half a
 * millisecond), a step that a machine shared tenfold stretches to a second. A larger schema is
 * compiled in parts of this size, each a function of its own that the part above calls by `$ref`.
 */
export const PART_SIZE = 100;

const isNode = (value: unknown): value is Schema => value !== null && typeof value === 'object' && !Array.isArray(value);

/** The subschemas of a keyword's value (none for a keyword that holds no schema). */
export function subschemasOf(keyword: string, value: unknown): unknown[] {
  if (ONE.has(keyword) && isNode(value)) return [value];
  if (LIST.has(keyword) && Array.isArray(value)) return value;
  if (MAP.has(keyword) && isNode(value)) return Object.values(value);
  return [];
}

/**
 * Inlined schemas (model.ts) as Ajv can compile them within the run's budget. Compiling a whole
 * inlined schema is one call no deadline check can interrupt, its cost the schema's size (a
 * spreadsheet API's batch request: thousands of objects), and the generators judge values by a
 * body's schema and then by each of its subschemas: the same objects compiled again and again.
 * Here a schema larger than PART_SIZE objects is compiled in parts, each registered once per
 * schema object and once per text (so a part shared by many schemas, judged on its own, or copied
 * by the model into schemas of several operations, is compiled once), the parts below first, with
 * a deadline check before each.
 */
export class SchemaGraph {
  private readonly keys = new WeakMap<object, string>();
  private readonly failures = new WeakMap<object, Error>();
  private readonly sizes = new WeakMap<object, number>();
  /** The key of each part compiled, by its text: equal copies of one schema (a body's and a response's) are compiled once. */
  private readonly byText = new Map<string, string>();
  private count = 0;

  constructor(
    private readonly ajv: Ajv2020,
    private readonly partSize = PART_SIZE,
  ) {}

  /** The validator of a schema, compiling what of it is not yet compiled; throws Ajv's error for a schema it refuses. */
  validator(schema: Schema): (value: unknown) => boolean {
    const validate = this.ajv.getSchema(this.part(schema, new Set()))!;
    return (value) => validate(value) === true;
  }

  /** How many schema objects a compile of the schema would take in, each copy counted. */
  private size(node: unknown, visiting: Set<object>): number {
    if (!isNode(node)) return 0;
    const known = this.sizes.get(node);
    if (known !== undefined) return known;
    if (visiting.has(node)) return Infinity;
    visiting.add(node);
    let size = 1;
    for (const [keyword, value] of Object.entries(node))
      for (const child of subschemasOf(keyword, value)) size = Math.min(size + this.size(child, visiting), Number.MAX_SAFE_INTEGER);
    visiting.delete(node);
    this.sizes.set(node, size);
    return size;
  }

  /** Registers and compiles a schema as one part (its large subschemas as parts of their own); returns its key. */
  private part(node: Schema, visiting: Set<object>): string {
    const known = this.keys.get(node);
    if (known !== undefined) return known;
    const failure = this.failures.get(node);
    if (failure) throw failure;
    try {
      const budget = { left: this.partSize };
      const copy = this.copy(node, budget, visiting);
      const text = JSON.stringify(copy);
      const same = this.byText.get(text);
      if (same !== undefined) {
        this.keys.set(node, same);
        return same;
      }
      checkDeadline();
      const key = `https://schema.invalid/${++this.count}`;
      this.ajv.addSchema(copy, key);
      try {
        this.ajv.getSchema(key);
      } catch (error) {
        this.ajv.removeSchema(key);
        throw error;
      }
      this.keys.set(node, key);
      this.byText.set(text, key);
      return key;
    } catch (error) {
      // A schema Ajv refuses stays refused; one the budget's end interrupted is not judged yet.
      if (error instanceof Error && !(error instanceof DeadlineReached)) this.failures.set(node, error);
      throw error;
    }
  }

  /** A part's copy of a schema: its subschemas copied while the part has room, each one past it a `$ref` to a part of its own. */
  private copy(node: Schema, budget: { left: number }, visiting: Set<object>): Schema {
    if (visiting.has(node)) throw new Error('a schema that contains itself');
    visiting.add(node);
    budget.left -= 1;
    const sub = (schema: unknown): unknown => {
      if (!isNode(schema)) return schema;
      if (this.size(schema, new Set()) <= budget.left) return this.copy(schema, budget, visiting);
      return { $ref: this.part(schema, visiting) };
    };
    const copy: Schema = {};
    for (const [keyword, value] of Object.entries(node)) {
      if (ONE.has(keyword) && isNode(value)) copy[keyword] = sub(value);
      else if (LIST.has(keyword) && Array.isArray(value)) copy[keyword] = value.map(sub);
      else if (MAP.has(keyword) && isNode(value))
        copy[keyword] = Object.fromEntries(
          Object.entries(value).map(([name, schema]) => [name, Array.isArray(schema) ? schema : sub(schema)]),
        );
      // Its `$ref`s resolved, a copy's `$id` names nothing, and two copies would claim one name.
      else if (keyword !== '$id') copy[keyword] = value;
    }
    visiting.delete(node);
    return copy;
  }
}
