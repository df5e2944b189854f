import fc from 'fast-check';
import { rethrowDeadline } from '../deadline.js';
import { hasDefault, isRecursionCut, type ApiModel, type OperationModel, type Schema } from '../spec/model.js';
import { baseParts, baseValue, sampleOne, type FixedCase } from './examples.js';
import { jsonText, type JsonValue } from './json-text.js';
import { emptyMeansAbsent, encodeParameter, setParameter, type RequestCredentials, type RequestParts } from './requests.js';
import { MISSING_HEADER, otherDiscriminatorValues } from './invalid-values.js';
import { isDiscriminatorProperty } from '../spec/discriminator.js';
import { isValid } from './schema-validator.js';
import {
  codePointLength,
  lengthBounds,
  makeable,
  MAX_MADE_ITEMS,
  MAX_MADE_LENGTH,
  mergeAllOf,
  typesOf,
  validValue,
} from './valid-values.js';

/** Taken out, rather than set to a value. */
const ABSENT = Symbol('absent');

interface Variant {
  value: unknown;
  why: string;
}

/** Valid texts of a schema's shortest and longest lengths, found among generated ones (or made of `a`s when nothing else constrains them). */
function textsAtBounds(schema: Schema, min: number, max: number): { shortest?: string; longest?: string } {
  if (schema['pattern'] === undefined && schema['format'] === undefined && schema['enum'] === undefined) {
    return { shortest: 'a'.repeat(min), ...(max <= MAX_MADE_LENGTH ? { longest: 'a'.repeat(max) } : {}) };
  }
  let values: unknown[] = [];
  try {
    values = fc.sample(validValue(schema), { numRuns: 60, seed: 0 });
  } catch (error) {
    rethrowDeadline(error);
    // A schema the tester cannot make values of: no boundary texts.
  }
  const texts = values.filter((value): value is string => typeof value === 'string' && isValid(schema, value));
  const found: { shortest?: string; longest?: string } = {};
  const shortest = texts.find((text) => codePointLength(text) === min);
  const longest = texts.find((text) => codePointLength(text) === max);
  if (shortest !== undefined) found.shortest = shortest;
  if (longest !== undefined) found.longest = longest;
  return found;
}

function bound(schema: Schema, keyword: string): number | undefined {
  return typeof schema[keyword] === 'number' ? schema[keyword] : undefined;
}

/**
 * The boundary values of a schema: each bound and one past it (numbers, lengths, item counts),
 * each enum value and one that is none of them, true and false. Whether each is valid is the
 * validator's to say, not this list's.
 */
export function boundaryValues(schema: Schema): Variant[] {
  const types = typesOf(schema);
  const variants: Variant[] = [];
  if (Array.isArray(schema['enum'])) {
    for (const value of schema['enum'] as unknown[]) variants.push({ value, why: `enum value ${jsonText(value)}` });
    const strings = (schema['enum'] as unknown[]).filter((value): value is string => typeof value === 'string');
    if (strings.length) variants.push({ value: `${strings[0]}-not-listed`, why: 'a value the enum does not list' });
    for (const other of otherDiscriminatorValues(schema, schema['enum'] as unknown[]))
      variants.push({ value: other, why: `${jsonText(other)}, the discriminator's value of another schema` });
    return variants;
  }
  if (types.includes('integer') || types.includes('number')) {
    // One past a bound: 1 for integers and numbers alike (1000.5 is past 1000 as 1001 is; the
    // validator, not this list, says which values are valid).
    const step = 1;
    const minimum = bound(schema, 'minimum');
    const maximum = bound(schema, 'maximum');
    const exclusiveMinimum = bound(schema, 'exclusiveMinimum');
    const exclusiveMaximum = bound(schema, 'exclusiveMaximum');
    if (minimum !== undefined) {
      variants.push({ value: minimum, why: `the minimum, ${minimum}` });
      variants.push({ value: minimum - step, why: `one below the minimum, ${minimum - step}` });
    }
    if (maximum !== undefined) {
      variants.push({ value: maximum, why: `the maximum, ${maximum}` });
      variants.push({ value: maximum + step, why: `one above the maximum, ${maximum + step}` });
    }
    if (exclusiveMinimum !== undefined) {
      variants.push({ value: exclusiveMinimum + step, why: `just above the exclusive minimum, ${exclusiveMinimum + step}` });
      variants.push({ value: exclusiveMinimum, why: `the exclusive minimum itself, ${exclusiveMinimum}` });
    }
    if (exclusiveMaximum !== undefined) {
      variants.push({ value: exclusiveMaximum - step, why: `just below the exclusive maximum, ${exclusiveMaximum - step}` });
      variants.push({ value: exclusiveMaximum, why: `the exclusive maximum itself, ${exclusiveMaximum}` });
    }
  }
  if (types.includes('string')) {
    const { min, max, declaredMax } = lengthBounds(schema);
    const { shortest, longest } = textsAtBounds(schema, min, max);
    if (min > 0 && shortest !== undefined) {
      variants.push({ value: shortest, why: `the shortest text, ${min} characters` });
      variants.push({ value: [...shortest].slice(0, -1).join(''), why: `one character too short, ${min - 1}` });
    }
    if (declaredMax !== undefined && longest !== undefined) {
      variants.push({ value: longest, why: `the longest text, ${declaredMax} characters` });
      variants.push({ value: longest + ([...longest].at(-1) ?? 'a'), why: `one character too long, ${declaredMax + 1}` });
    }
  }
  if (types.includes('boolean')) variants.push({ value: true, why: 'true' }, { value: false, why: 'false' });
  if (types.includes('array')) {
    const items = (schema['items'] as Schema | undefined) ?? {};
    const item = sampleOne(validValue(items));
    const minItems = bound(schema, 'minItems');
    const maxItems = bound(schema, 'maxItems');
    const counts: Array<[number, string]> = [];
    if (minItems !== undefined && minItems > 0)
      counts.push([minItems, `the fewest items, ${minItems}`], [minItems - 1, `one item too few, ${minItems - 1}`]);
    if (maxItems !== undefined)
      counts.push([maxItems, `the most items, ${maxItems}`], [maxItems + 1, `one item too many, ${maxItems + 1}`]);
    // Unique items need different values: made one by one.
    for (const [count, why] of counts) {
      if ((item === undefined && count > 0) || count > MAX_MADE_ITEMS) continue;
      const values =
        schema['uniqueItems'] === true && item !== undefined ? fc.sample(validValue(items), { numRuns: count * 4 + 4, seed: 1 }) : [];
      const unique = [...new Map(values.map((value) => [jsonText(value), value])).values()];
      const list = schema['uniqueItems'] === true ? unique.slice(0, count) : Array.from({ length: count }, () => item);
      if (list.length === count) variants.push({ value: list, why });
    }
  }
  return variants;
}

type PathStep = string | 0;

/** The body with the value at the path set (ABSENT takes it out), the rest as it was. */
function withValueAt(body: unknown, path: PathStep[], value: unknown): unknown {
  if (!path.length) return value;
  const [step, ...rest] = path as [PathStep, ...PathStep[]];
  if (step === 0) {
    const array = Array.isArray(body) ? [...(body as unknown[])] : [];
    if (!array.length) return body;
    array[0] = withValueAt(array[0], rest, value);
    return array;
  }
  const object = body !== null && typeof body === 'object' && !Array.isArray(body) ? { ...(body as Record<string, unknown>) } : {};
  const next = withValueAt(object[step], rest, value);
  if (next === ABSENT) delete object[step];
  else Object.defineProperty(object, step, { value: next, enumerable: true, writable: true, configurable: true });
  return object;
}

const describePath = (path: PathStep[]) => `body${path.map((step) => (step === 0 ? '[0]' : `.${step}`)).join('')}`;

/** A oneOf or anyOf branch a site is in: the body's value at `path` must first be one of `schema`. */
interface BranchFill {
  path: PathStep[];
  schema: Schema;
  label: string;
}

interface PropertySite {
  path: PathStep[];
  schema: Schema;
  required: boolean;
  branch?: BranchFill;
}

/**
 * The properties of a body schema at each depth (objects within objects, the first item of arrays,
 * the members of each branch of a oneOf or anyOf), with whether each is required.
 */
function propertySites(raw: Schema, path: PathStep[] = [], depth = 0, branch?: BranchFill): PropertySite[] {
  if (depth > 3 || isRecursionCut(raw)) return [];
  const schema = mergeAllOf(raw);
  const sites: PropertySite[] = [];
  const properties = (schema['properties'] as Record<string, Schema> | undefined) ?? {};
  const required = new Set((schema['required'] as string[] | undefined) ?? []);
  for (const [name, property] of Object.entries(properties)) {
    const merged = mergeAllOf(property);
    if (isRecursionCut(merged) || property['readOnly'] === true) continue;
    sites.push({ path: [...path, name], schema: merged, required: required.has(name), ...(branch ? { branch } : {}) });
    sites.push(...propertySites(property, [...path, name], depth + 1, branch));
  }
  const items = schema['items'] as Schema | undefined;
  if (items && typeof items === 'object') sites.push(...propertySites(items, [...path, 0], depth + 1));
  sites.push(...branchSites(schema, path, depth, properties));
  return sites;
}

/** The members of each branch of a schema's oneOf or anyOf that the schema itself does not declare. */
function branchSites(schema: Schema, path: PathStep[], depth: number, declared: Record<string, Schema>): PropertySite[] {
  const branches = (schema['oneOf'] ?? schema['anyOf']) as Schema[] | undefined;
  if (!Array.isArray(branches)) return [];
  const { oneOf: _oneOf, anyOf: _anyOf, ...base } = schema;
  return branches
    .filter((branch) => makeable(branch))
    .flatMap((branch, index) => {
      const whole = { ...base, ...mergeAllOf(branch) };
      const title = typeof branch['title'] === 'string' ? `"${branch['title']}"` : String(index + 1);
      const fill = { path, schema: whole, label: `branch ${title} of ${describePath(path)}` };
      return propertySites(whole, path, depth + 1, fill).filter(({ path: at }) => !(String(at[path.length]) in declared));
    });
}

/** The value at a path of a body (the first item for 0), if it has one. */
function valueAt(body: unknown, path: PathStep[]): unknown {
  return path.reduce<unknown>(
    (node, step) => (node !== null && typeof node === 'object' ? (node as Record<string | number, unknown>)[step] : undefined),
    body,
  );
}

/**
 * The base body with the value at a branch's place one of that branch (kept if it already is), so
 * that what a site changes is read by that branch; undefined when no such body is valid.
 */
function inBranch(body: unknown, fill: BranchFill, whole: Schema): unknown {
  if (isValid(fill.schema, valueAt(body, fill.path))) return body;
  let candidates: unknown[] = [];
  try {
    candidates = fc.sample(validValue(fill.schema), { numRuns: 12, seed: 0 });
  } catch {
    // A branch the tester cannot make values of: no sites in it.
  }
  return candidates.map((value) => withValueAt(body, fill.path, value)).find((changed) => isValid(whole, changed));
}

/** Whether a schema takes no member it does not declare. */
function isClosed(schema: Schema): boolean {
  return schema['additionalProperties'] === false || schema['unevaluatedProperties'] === false;
}

/** The body with a member its object at `path` does not declare (a closed object must refuse it). */
function withUndeclaredMember(body: unknown, path: PathStep[], schema: Schema): { value: unknown; name: string } | undefined {
  const object = valueAt(body, path);
  if (object === null || typeof object !== 'object' || Array.isArray(object)) return undefined;
  const declared = (schema['properties'] as Record<string, unknown> | undefined) ?? {};
  const name = ['unexpected', 'unexpected_member', 'x_unexpected'].find((candidate) => !(candidate in declared));
  return name === undefined ? undefined : { value: withValueAt(body, path, { ...object, [name]: 'unexpected' }), name };
}

/**
 * The body's changes, one at a time: each site's boundary values, each member left out (or given),
 * each in a body of the branch it belongs to, and in each closed object a member it does not declare.
 */
function bodyVariants(schema: Schema, base: unknown): Array<{ value: unknown; why: string }> {
  const variants: Array<{ value: unknown; why: string }> = [];
  const filled = new Map<BranchFill, unknown>();
  const undeclared = (start: unknown, path: PathStep[], object: Schema, where: string) => {
    const added = start !== undefined && isClosed(object) ? withUndeclaredMember(start, path, object) : undefined;
    if (added) variants.push({ value: added.value, why: `${where}: ${added.name}, a member it does not declare` });
  };
  undeclared(base, [], mergeAllOf(schema), 'body');
  for (const site of propertySites(schema)) {
    const { branch } = site;
    if (branch && !filled.has(branch)) {
      filled.set(branch, inBranch(base, branch, schema));
      undeclared(filled.get(branch), branch.path, branch.schema, branch.label);
    }
    const start = branch ? filled.get(branch) : base;
    if (start === undefined) continue;
    const where = branch ? `${describePath(site.path)} (in ${branch.label})` : describePath(site.path);
    const change = (value: unknown, why: string) => {
      const changed = withValueAt(start, site.path, value);
      if (changed !== start) variants.push({ value: changed, why });
    };
    for (const { value, why } of boundaryValues(site.schema)) change(value, `${where}: ${why}`);
    if (site.required) {
      if (!hasDefault(site.schema)) change(ABSENT, `${where} left out (it is required)`);
    } else {
      // Without its discriminator's property a value means nothing OpenAPI defines: not sent.
      if (!isDiscriminatorProperty(site.schema)) change(ABSENT, `${where} left out`);
      const present = sampleOne(validValue(site.schema));
      if (present !== undefined) change(present, `${where} given`);
    }
    undeclared(start, site.path, site.schema, where);
  }
  return variants;
}

/** The most cases the coverage phase makes of one operation. */
const MAX_CASES = 120;

/**
 * The coverage phase of an operation: from its base request (examples.ts), one change at a time:
 * each boundary value of each parameter and body property (valid ones must be accepted, the ones
 * past a bound refused), each optional parameter and property present and absent, each required
 * one absent. Deterministic: the same spec makes the same cases.
 */
export function coverageCases(
  api: ApiModel,
  operation: OperationModel,
  credentials: RequestCredentials,
  linkSupplied: ReadonlySet<string> = new Set(),
): FixedCase[] {
  const base = baseParts(api, operation, credentials);
  const cases: FixedCase[] = [];
  const add = (parts: RequestParts, why: string, valid: boolean, bodyValue: unknown, rule?: string, pathParameter?: string) => {
    const item: FixedCase = {
      parts,
      why,
      valid,
      ...(rule ? { rule } : {}),
      ...(pathParameter ? { pathParameter } : {}),
    };
    if (bodyValue !== undefined) item.bodyValue = bodyValue;
    cases.push(item);
  };
  // A parameter the server ignores when it cannot use it has no boundary; one only links supply (a
  // cursor) has no value of its own to try.
  for (const parameter of operation.parameters.filter(
    ({ ignoredIfInvalid, name, required }) => !ignoredIfInvalid && (required || !linkSupplied.has(name)),
  )) {
    const where = `${parameter.in} parameter ${parameter.name}`;
    for (const { value, why } of boundaryValues(parameter.schema)) {
      // A header carries printable text only; an empty value may be no value (emptyMeansAbsent).
      const text = encodeParameter(parameter, value);
      if (emptyMeansAbsent(parameter) && (text === '' || (Array.isArray(text) && !text.length))) continue;
      if (
        (parameter.in === 'header' || parameter.in === 'cookie') &&
        typeof value === 'string' &&
        (/^\s|\s$/.test(value) || !/^[\x20-\x7e]*$/.test(value))
      )
        continue;
      add(
        setParameter(base.parts, parameter, text),
        `${where}: ${why}`,
        isValid(parameter.schema, value),
        base.bodyValue,
        undefined,
        parameter.in === 'path' ? parameter.name : undefined,
      );
    }
    if (parameter.in === 'path') continue;
    if (parameter.required) {
      if (hasDefault(parameter.schema)) continue;
      add(
        setParameter(base.parts, parameter, undefined),
        `${where} left out (it is required)`,
        false,
        base.bodyValue,
        parameter.in === 'header' ? MISSING_HEADER : undefined,
      );
    } else {
      const value = baseValue(parameter);
      if (value !== undefined)
        add(setParameter(base.parts, parameter, encodeParameter(parameter, value)), `${where} given`, true, base.bodyValue);
    }
  }
  const body = base.parts.body;
  const media = operation.body?.media.find(({ kind }) => kind === 'json');
  if (body && 'value' in body && body.mediaType !== undefined && media) {
    for (const { value, why } of bodyVariants(media.schema, body.value))
      add({ ...base.parts, body: { mediaType: body.mediaType, value: value as JsonValue } }, why, isValid(media.schema, value), value);
  }
  // Cases that are the base request again say nothing new.
  const seen = new Set<string>();
  return cases
    .filter((item) => {
      const key = jsonText([item.parts.pathParameters, item.parts.query, item.parts.headers, item.bodyValue]);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .slice(0, MAX_CASES);
}
