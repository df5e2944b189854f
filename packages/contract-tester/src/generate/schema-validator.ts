import { Ajv2020 } from 'ajv/dist/2020.js';
import { checkDeadline, rethrowDeadline } from '../deadline.js';
import { UnmakeableValue } from './bounded-filter.js';
import { FORMATS } from './formats.js';
import { validatedView } from './json-text.js';
import { SchemaGraph } from './schema-graph.js';
import type { Schema } from '../spec/model.js';

/**
 * Ajv for JSON Schema 2020-12 (OpenAPI 3.1's dialect), with the formats the tester knows: values
 * are judged by the same rules they are generated and broken by. OpenAPI's own keywords
 * (`example`, `x-…`) are not JSON Schema's, so strict mode is off.
 */
export function createAjv(options: { verbose?: boolean; firstError?: boolean; callRefs?: boolean } = {}): Ajv2020 {
  // A format it does not know is an annotation (JSON Schema 2020-12): ignored, without a warning.
  // `verbose` keeps each error's schema, which explaining a failed oneOf needs. `firstError` is
  // for a yes or no: it stops at the first error. Both it and `callRefs` call each `$ref`'s
  // function rather than copying its code in, so a schema reached by many is compiled once.
  const ajv = new Ajv2020({
    strict: false,
    allErrors: options.firstError !== true,
    ...(options.firstError || options.callRefs ? { inlineRefs: false } : {}),
    validateFormats: true,
    logger: false,
    verbose: options.verbose === true,
  });
  for (const [name, rule] of Object.entries(FORMATS)) {
    if (rule.type === 'integer' && rule.range) {
      // Values reach Ajv as validatedView makes them, past 2^53 rounded so that each range's ends
      // fall on their side: below max + 1, a power of two every double holds, is in range.
      const low = Number(rule.range.min);
      const high = Number(rule.range.max + 1n);
      ajv.addFormat(name, { type: 'number', validate: (value: number) => Number.isInteger(value) && value >= low && value < high });
    } else if (rule.test) {
      ajv.addFormat(name, { type: 'string', validate: rule.test });
    }
  }
  return ajv;
}

let shared: SchemaGraph | undefined;
const compiled = new WeakMap<Schema, (value: unknown) => boolean>();

/**
 * Whether a value is valid by an inlined schema (no `$ref`s); each schema object is compiled once
 * (see SchemaGraph). The generators' filters call it for every candidate, so it is where a run out
 * of time stops them, and so is each object's compile.
 */
export function isValid(schema: Schema, value: unknown): boolean {
  checkDeadline();
  let validate = compiled.get(schema);
  if (!validate) {
    shared ??= new SchemaGraph(createAjv({ firstError: true }));
    let check: (candidate: unknown) => unknown;
    try {
      check = shared.validator(schema);
    } catch (error) {
      rethrowDeadline(error);
      // A schema JSON Schema itself refuses (api.video's `pattern` that is not a string): no value
      // can be judged by it, so none is made, and the operation is left out with the reason.
      throw new UnmakeableValue(`cannot judge values: ${refusal(schema, error as Error)}`);
    }
    validate = (candidate) => {
      try {
        return check(candidate) === true;
      } catch {
        // Ajv's deep equality (enum, const, uniqueItems) calls a value's own `valueOf` key as a
        // method: a candidate with such a property is refused, and the generator makes another.
        return false;
      }
    };
    compiled.set(schema, validate);
  }
  return validate(validatedView(value));
}

/** Why Ajv refuses a schema, said of the whole schema (the graph met the fault in one of its objects). */
function refusal(schema: Schema, error: Error): string {
  const ajv = (meta ??= createAjv());
  return ajv.validateSchema(schema) === false ? `schema is invalid: ${ajv.errorsText(ajv.errors)}` : error.message;
}

let meta: Ajv2020 | undefined;
