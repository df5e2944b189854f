import { checkDeadline } from '../deadline.js';
import type { OpenApiDocument } from './openapi.js';

// OpenAPI 3.0's schemas are a dialect of JSON Schema draft 4; 3.1's are JSON Schema 2020-12. The
// tester generates and validates in 2020-12 alone, so a 3.0 document's schemas are rewritten into
// it once, on loading: `nullable` becomes a null type, boolean exclusive bounds become numeric ones.
// The keywords that mean the same in both need nothing.

/** Keys whose values are data, not schemas: never rewritten. */
const DATA = new Set(['example', 'examples', 'enum', 'const', 'default']);

function rewriteSchema(schema: Record<string, unknown>): void {
  for (const bound of ['Minimum', 'Maximum'] as const) {
    const exclusive = schema[`exclusive${bound}`];
    if (typeof exclusive !== 'boolean') continue;
    const limit = schema[bound.toLowerCase()];
    if (exclusive && typeof limit === 'number') {
      schema[`exclusive${bound}`] = limit;
      delete schema[bound.toLowerCase()];
    } else {
      delete schema[`exclusive${bound}`];
    }
  }
  if (typeof schema['nullable'] !== 'boolean') return;
  const nullable = schema['nullable'];
  delete schema['nullable'];
  if (!nullable) return;
  const type = schema['type'];
  if (typeof type === 'string') schema['type'] = [type, 'null'];
  else if (Array.isArray(type) && !type.includes('null')) schema['type'] = [...(type as unknown[]), 'null'];
  const values = schema['enum'];
  if (Array.isArray(values) && !values.includes(null)) schema['enum'] = [...(values as unknown[]), null];
  if (type === undefined && Object.keys(schema).some((keyword) => !keyword.startsWith('x-') && keyword !== 'description')) {
    // nullable beside allOf, oneOf or a $ref: null or what the rest allows.
    const rest = { ...schema };
    for (const keyword of Object.keys(schema)) delete schema[keyword];
    schema['anyOf'] = [{ type: 'null' }, rest];
  }
}

function walk(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(walk);
  if (node === null || typeof node !== 'object') return;
  checkDeadline();
  const object = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(object)) if (!DATA.has(key)) walk(value);
  // No other object of an OpenAPI document has these keywords, so any object with them is a schema.
  if (
    typeof object['nullable'] === 'boolean' ||
    typeof object['exclusiveMinimum'] === 'boolean' ||
    typeof object['exclusiveMaximum'] === 'boolean'
  ) {
    rewriteSchema(object);
  }
}

/** Where a schema's `pattern` that is no ECMA-262 regular expression is kept, out of the way. */
export const UNUSABLE_PATTERN = 'x-unusable-pattern';

/**
 * JSON Schema's patterns are ECMA-262 regular expressions (with Unicode, as Ajv and the generators
 * compile them). Public documents carry others (`[\w\- ]`, `\p{all}`: Java's and PCRE's), which no
 * engine here compiles: such a pattern is moved under UNUSABLE_PATTERN, so the schema is read
 * without it rather than the run crashing on it.
 */
function setAsideUnusablePatterns(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(setAsideUnusablePatterns);
  if (node === null || typeof node !== 'object') return;
  checkDeadline();
  const object = node as Record<string, unknown>;
  for (const [key, value] of Object.entries(object)) if (!DATA.has(key)) setAsideUnusablePatterns(value);
  const pattern = object['pattern'];
  if (typeof pattern !== 'string') return;
  try {
    new RegExp(pattern, 'u');
  } catch {
    object[UNUSABLE_PATTERN] = pattern;
    delete object['pattern'];
  }
}

/**
 * Rewrites a 3.0 document's schemas into JSON Schema 2020-12, in place (a 3.1 document's are
 * already); in either, patterns no engine here compiles are set aside.
 */
export function normalizeDialect(document: OpenApiDocument): void {
  if (String(document.openapi).startsWith('3.0')) walk(document);
  setAsideUnusablePatterns(document);
}
