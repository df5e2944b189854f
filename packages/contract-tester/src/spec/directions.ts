import { checkDeadline } from '../deadline.js';
import { BUNDLED } from './load.js';
import { resolveRef, type OpenApiDocument, type SchemaObject } from './openapi.js';

/**
 * Which way a value goes. OpenAPI (3.0.3 §4.7.25, 3.1 by JSON Schema's annotations): a `readOnly`
 * property is the server's to send, never the client's, and a `writeOnly` one the client's alone.
 * Either may be listed in `required`, and is then required in its own direction only.
 */
export type Direction = 'request' | 'response';

const LEFT_OUT: Record<Direction, string> = { request: 'readOnly', response: 'writeOnly' };

/** Keys whose values are data, not schemas. */
const DATA = new Set(['example', 'examples', 'enum', 'const', 'default']);

/** Keywords that apply their schemas to the same value, so their `required` may name the parent's properties. */
const IN_PLACE = new Set(['allOf', 'oneOf', 'anyOf', 'then', 'else', 'dependentSchemas']);

type Resolve = (node: unknown) => unknown;

const isObject = (node: unknown): node is Record<string, unknown> => node !== null && typeof node === 'object' && !Array.isArray(node);

/** Whether a value goes the other way: `readOnly` (or `writeOnly`), on the schema or a `$ref` it names, or an allOf part. */
export function goesOtherWay(schema: unknown, direction: Direction, resolve: Resolve = (node) => node, depth = 0): boolean {
  if (!isObject(schema) || depth > 8) return false;
  if (schema[LEFT_OUT[direction]] === true) return true;
  const target = resolve(schema);
  if (target !== schema && goesOtherWay(target, direction, resolve, depth + 1)) return true;
  const parts = schema['allOf'];
  return Array.isArray(parts) && parts.some((part) => goesOtherWay(part, direction, resolve, depth + 1));
}

/** The names of a schema's properties (its own and its allOf parts') that go the other way. */
function otherWayNames(schema: Record<string, unknown>, direction: Direction, resolve: Resolve, depth = 0): string[] {
  if (depth > 8) return [];
  const names: string[] = [];
  const properties = schema['properties'];
  if (isObject(properties)) {
    for (const [name, property] of Object.entries(properties)) if (goesOtherWay(property, direction, resolve)) names.push(name);
  }
  const parts = schema['allOf'];
  if (Array.isArray(parts)) {
    for (const part of parts) {
      const target = resolve(part);
      if (isObject(target)) names.push(...otherWayNames(target, direction, resolve, depth + 1));
    }
  }
  return names;
}

/** How a rewrite copies data (examples, defaults, extensions): as it is, or without `$id`s for a validator. */
type DataCopy = (value: unknown) => unknown;

const asIs: DataCopy = (value) => value;

function rewrite(node: unknown, direction: Direction, resolve: Resolve, inherited: ReadonlySet<string>, data: DataCopy = asIs): unknown {
  if (Array.isArray(node)) return node.map((item) => rewrite(item, direction, resolve, new Set(), data));
  if (!isObject(node)) return node;
  // A whole document of thousands of operations takes seconds: the run's budget counts them.
  checkDeadline();
  const leftOut = new Set([...inherited, ...otherWayNames(node, direction, resolve)]);
  const copy: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (DATA.has(key) || (key.startsWith('x-') && key !== BUNDLED)) copy[key] = data(value);
    else if (key === 'not') copy[key] = value;
    else if (key === 'required' && Array.isArray(value)) copy[key] = value.filter((name) => !leftOut.has(name as string));
    else if (IN_PLACE.has(key) && Array.isArray(value)) copy[key] = value.map((part) => rewrite(part, direction, resolve, leftOut, data));
    else if (IN_PLACE.has(key)) copy[key] = rewrite(value, direction, resolve, leftOut, data);
    else copy[key] = rewrite(value, direction, resolve, new Set(), data);
  }
  return copy;
}

/**
 * Data without its `$id` keys (the same value when it has none). Ajv takes an `$id` wherever it
 * finds one, in an example too, and two alike (Akeneo's examples of a JSON Schema) make it refuse
 * the whole document; in data an `$id` is a value, not a schema's name.
 */
export function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) {
    const items = value.map(withoutIds);
    return items.every((item, index) => item === value[index]) ? value : items;
  }
  if (!isObject(value)) return value;
  let copy: Record<string, unknown> | undefined;
  for (const [key, item] of Object.entries(value)) {
    const kept = withoutIds(item);
    if (key !== '$id' && kept === item) continue;
    copy ??= { ...value };
    if (key === '$id') delete copy[key];
    else copy[key] = kept;
  }
  return copy ?? value;
}

/**
 * An inlined schema (no `$ref`s) as one direction sees it: a copy whose `required` lists leave out
 * the properties that go the other way (readOnly ones in a request, writeOnly ones in a response).
 */
export function schemaFor<T extends SchemaObject>(direction: Direction, schema: T): T {
  return rewrite(schema, direction, (node) => node, new Set()) as T;
}

/**
 * A copy of a whole document (with its `$ref`s) as responses see it, for validating them: every
 * schema's `required` leaves out writeOnly properties, whether flagged on the property itself or
 * on the schema its `$ref` names; examples, defaults and extensions carry no `$id` a validator
 * would take for a schema's.
 */
export function documentFor(direction: Direction, document: OpenApiDocument): OpenApiDocument {
  const resolve: Resolve = (node) => {
    try {
      return resolveRef(document, node);
    } catch {
      // A reference the loader could not bundle is not this rewrite's to judge.
      return node;
    }
  };
  return rewrite(document, direction, resolve, new Set(), withoutIds) as OpenApiDocument;
}
