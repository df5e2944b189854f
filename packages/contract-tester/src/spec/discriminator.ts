import { resolveRef, unescapePointerToken, type OpenApiDocument, type SchemaObject } from './openapi.js';

/**
 * OpenAPI's `discriminator` names the property whose value says which schema a value is: the keys
 * of its `mapping` that point at the schema, or else the schema's own name (`Cat` for
 * `#/components/schemas/Cat`). JSON Schema knows nothing of it, so a copy that the tester generates
 * from holds each branch to its values as an enum (a body whose `petType` names another branch is
 * one a server refuses). Where the other values of the discriminator are kept, for the negative
 * cases and boundaries that try another branch's name.
 */
export const DISCRIMINATOR_VALUES = 'x-discriminator-values';

interface Discriminator {
  propertyName: string;
  mapping?: Record<string, unknown>;
}

function discriminatorOf(schema: unknown): Discriminator | undefined {
  if (schema === null || typeof schema !== 'object') return undefined;
  const discriminator = (schema as SchemaObject)['discriminator'] as Discriminator | undefined;
  return discriminator && typeof discriminator.propertyName === 'string' ? discriminator : undefined;
}

/** The last token of a reference: the schema's name. */
const nameOf = (ref: string) => unescapePointerToken(ref.slice(ref.lastIndexOf('/') + 1));

/** The values of a discriminator that name the schema a `$ref` points at: the mapping's keys for it, else its name. */
export function discriminatorValues(discriminator: Discriminator, ref: string): string[] {
  const mapped = Object.entries(discriminator.mapping ?? {})
    .filter(([, target]) => typeof target === 'string' && (target === ref || nameOf(target) === nameOf(ref)))
    .map(([key]) => key);
  return mapped.length ? mapped : [nameOf(ref)];
}

/** Whether a property holds a discriminator's value (such a copy's property, see `constrained`). */
export function isDiscriminatorProperty(schema: unknown): boolean {
  return schema !== null && typeof schema === 'object' && Array.isArray((schema as SchemaObject)[DISCRIMINATOR_VALUES]);
}

/** Whether a schema requires a property: its own `required`, or an allOf part's. */
function requires(schema: unknown, name: string): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  const { required, allOf } = schema as SchemaObject;
  return (Array.isArray(required) && required.includes(name)) || (Array.isArray(allOf) && allOf.some((part) => requires(part, name)));
}

/**
 * A schema held to the discriminator values that name it (the others kept beside them). The
 * property is required only where the schema (or `parent`, the schema the discriminator is on)
 * requires it: OpenAPI 3.1.1 leaves what a value without it means undefined, so the tester makes
 * every value with it, and never sends one without it as a refusal the server owes.
 */
function constrained(schema: SchemaObject, propertyName: string, values: string[], all: string[], parent?: unknown): SchemaObject {
  const property: SchemaObject = { type: 'string', enum: values, [DISCRIMINATOR_VALUES]: all };
  const required = requires(schema, propertyName) || requires(parent, propertyName) ? { required: [propertyName] } : {};
  return { allOf: [schema, { type: 'object', ...required, properties: { [propertyName]: property } }] };
}

/**
 * A copy's oneOf or anyOf branches held to the values of the discriminator beside them (each
 * branch a `$ref`, as OpenAPI asks). `raw` is the schema as written, `copy` its inlined copy (changed).
 */
export function withDiscriminator(raw: SchemaObject, copy: SchemaObject): SchemaObject {
  const discriminator = discriminatorOf(raw);
  if (!discriminator) return copy;
  for (const keyword of ['oneOf', 'anyOf']) {
    const branches = raw[keyword];
    const copies = copy[keyword];
    if (!Array.isArray(branches) || !Array.isArray(copies)) continue;
    const refs = (branches as Array<SchemaObject | null>).map((branch) => {
      const ref = branch?.['$ref'];
      return typeof ref === 'string' ? ref : undefined;
    });
    const all = [...new Set(refs.flatMap((ref) => (ref ? discriminatorValues(discriminator, ref) : [])))];
    copy[keyword] = copies.map((branch: SchemaObject, index) => {
      const ref = refs[index];
      return ref ? constrained(branch, discriminator.propertyName, discriminatorValues(discriminator, ref), all, copy) : branch;
    });
  }
  return copy;
}

/**
 * The inlined copy of a schema that inherits a discriminator through allOf (`Cat: allOf: [Pet, …]`,
 * Pet's discriminator without branches of its own): held to the values that name it.
 */
export function withInheritedDiscriminator(document: OpenApiDocument, ref: string, target: unknown, copy: SchemaObject): SchemaObject {
  const parts = target !== null && typeof target === 'object' ? (target as SchemaObject)['allOf'] : undefined;
  if (!Array.isArray(parts)) return copy;
  for (const part of parts as SchemaObject[]) {
    if (typeof part?.['$ref'] !== 'string') continue;
    let parent: unknown;
    try {
      parent = resolveRef(document, part);
    } catch {
      continue; // a reference the loader could not bundle is not this one's to judge
    }
    const discriminator = discriminatorOf(parent);
    if (!discriminator || 'oneOf' in (parent as SchemaObject) || 'anyOf' in (parent as SchemaObject)) continue;
    const values = discriminatorValues(discriminator, ref);
    const all = [...new Set([...Object.keys(discriminator.mapping ?? {}), ...values])];
    return constrained(copy, discriminator.propertyName, values, all);
  }
  return copy;
}

const families = new WeakMap<OpenApiDocument, Map<string, string[]>>();

/**
 * The schemas a polymorphic parent stands for, when it is used on its own (`Animal` as a body,
 * with a discriminator and no oneOf or anyOf of its own): its mapping's targets, else the
 * components that inherit from it through allOf. A value of the parent is a value of one of them,
 * its discriminator naming which; none (an empty list) when it has no such discriminator.
 */
export function polymorphicChildren(document: OpenApiDocument, ref: string, target: unknown): string[] {
  const discriminator = discriminatorOf(target);
  if (!discriminator || 'oneOf' in (target as SchemaObject) || 'anyOf' in (target as SchemaObject)) return [];
  let known = families.get(document);
  if (!known) families.set(document, (known = new Map<string, string[]>()));
  let children = known.get(ref);
  if (!children) {
    const mapped = Object.values(discriminator.mapping ?? {})
      .filter((value): value is string => typeof value === 'string')
      .map((value) => (value.includes('/') ? value : `#/components/schemas/${value}`));
    const inheriting = Object.entries(document.components?.schemas ?? {})
      .filter(
        ([, schema]) => Array.isArray(schema?.['allOf']) && (schema['allOf'] as SchemaObject[]).some((part) => part?.['$ref'] === ref),
      )
      .map(([name]) => `#/components/schemas/${name}`);
    children = [...new Set(mapped.length ? mapped : inheriting)].filter(
      (child) => nameOf(child) !== nameOf(ref) && resolves(document, child),
    );
    known.set(ref, children);
  }
  return children;
}

function resolves(document: OpenApiDocument, ref: string): boolean {
  try {
    resolveRef(document, { $ref: ref });
    return true;
  } catch {
    return false;
  }
}
