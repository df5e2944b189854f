import fc from 'fast-check';
import { goesOtherWay } from '../spec/directions.js';
import {
  hasDefault,
  isRecursionCut,
  type ApiModel,
  type MediaModel,
  type OperationModel,
  type ParameterModel,
  type Schema,
} from '../spec/model.js';
import { validJson } from './bodies.js';
import { keepWhere, makesValues } from './bounded-filter.js';
import { FORMATS } from './formats.js';
import { brokenValues, INVALID_UTF8, MISSING_HEADER, type BrokenValue, type Rule } from './invalid-values.js';
import { encodeJson, RawJson, type JsonValue } from './json-text.js';
import {
  buildRequest,
  emptyMeansAbsent,
  headerText,
  percentEncode,
  positiveParts,
  setParameter,
  validParameterValue,
  parameterText,
  type PositiveOptions,
  type RequestCredentials,
  type RequestParts,
  type TestRequest,
} from './requests.js';
import { isValid } from './schema-validator.js';
import { makeable, mergeAllOf, pick, typesOf, validValue } from './valid-values.js';

/** A request built to break one rule, the rule it breaks, in words, and by name (which decides the check its acceptance fails). */
export interface NegativeCase {
  request: TestRequest;
  why: string;
  rule?: NegativeRule | typeof MISSING_HEADER;
  /**
   * The same case built from its valid parts changed first (its path parameters set to those of a
   * resource just made), the rule then broken as before.
   */
  rebuild?: (change: (parts: RequestParts) => RequestParts) => TestRequest;
}

/** Rules of a whole body rather than of a value in it. */
export const BODY_RULES = ['unsupported media type', 'body too large', 'malformed body'] as const;
export type NegativeRule = Rule | (typeof BODY_RULES)[number];

interface Violation {
  apply: (parts: RequestParts) => RequestParts;
  why: string;
  missingHeader?: boolean;
}

// ---------------------------------------------------------------------------------------------
// Parameters: their text on the wire.

const digits = (count: number, first = '9') => first + '9'.repeat(count - 1);

/** Non-canonical spellings of an integer: `+1`, `01`, ` 1`, `1.0`, `1e0`, `0x1`, `Infinity`, ... */
function nonCanonicalTexts(value: number | bigint, inHeader: boolean): string[] {
  const texts = [
    `+${value}`,
    `0${value}`,
    `00${value}`,
    `${value}.0`,
    `${value}e0`,
    `${value}.`,
    `0x${value.toString(16)}`,
    `0o${value.toString(8)}`,
    `0b${value.toString(2)}`,
    'Infinity',
    '-Infinity',
    'NaN',
    `${value}n`,
  ];
  // Around a header value, white space is not part of it (RFC 9110 §5.5): only in paths and queries.
  if (!inHeader) texts.push(` ${value}`, `${value} `, `\t${value}`, `${value}\n`);
  return texts;
}

const WRONG_TYPE_TEXTS: Record<string, string[]> = {
  integer: ['abc', 'true', 'null', '1.5', '[1]', '1,2', '{}', '1a'],
  number: ['abc', 'true', 'null', '[1]', '1,2', '{}', '1a'],
  boolean: ['yes', 'no', 'null', '2', 'True ', '[]'],
};

const BAD_PERCENT_ENCODING = [
  ...INVALID_UTF8.map((bytes) => bytes.map((byte) => `%${byte.toString(16).toUpperCase().padStart(2, '0')}`).join('')),
  '%00',
  '%',
  '%G0',
  '%E2%8',
];

/** A header value as the receiver reads it: without the white space around it. */
function receivedHeaderValue(wire: string): string {
  return wire.replace(/^[ \t]+|[ \t]+$/g, '');
}

function textOf(broken: BrokenValue): string {
  return broken.value instanceof RawJson ? broken.value.display : parameterText(broken.value);
}

/**
 * The most digits a number in a URL may have and still leave the request target within the spec's
 * `x-max-request-target-bytes` (a longer target is refused before any operation sees it).
 */
function maxDigitsInUrl(api: ApiModel): number {
  const headroom = 512; // the path, the other parameters and their names
  return Math.max(20, Math.min(10_000, (api.maxRequestTargetBytes ?? Infinity) - headroom));
}

type ParameterViolation = { encoded: string | undefined; why: string; missingHeader?: boolean };

function parameterViolations(parameter: ParameterModel, rule: Rule, maxDigits: number): fc.Arbitrary<ParameterViolation> | undefined {
  const violations = violationsOf(parameter, rule, maxDigits);
  // `name=` where the spec allows no empty value may be read as the parameter left out: no value
  // at all, which an optional parameter may be. An empty path parameter names another path
  // (`/clients/` for `/clients/{language}`), which another operation may serve.
  const emptyIsAnother = parameter.in === 'path' || (parameter.in === 'query' && emptyMeansAbsent(parameter));
  if (emptyIsAnother && violations && rule !== 'missing required') {
    const notEmpty = keepWhere(
      violations,
      ({ encoded }) => encoded !== '',
      `a broken value of ${parameter.in} parameter ${parameter.name}, not empty`,
    );
    return makesValues(notEmpty) ? notEmpty : undefined;
  }
  // A header value goes out with control characters as spaces, and the receiver trims the white
  // space around it (RFC 9110 §5.5): a broken " A" arrives as a valid "A". Only values that are still
  // broken on arrival count. (Bytes that are not UTF-8 are the point of their rule, left as they are.)
  if (parameter.in !== 'header' || rule === 'badly encoded text' || rule === 'missing required') return violations;
  return (
    violations &&
    keepWhere(
      violations,
      ({ encoded }) => encoded === undefined || !isValid(parameter.schema, receivedHeaderValue(encoded)),
      `a value of header ${parameter.name} still broken on arrival`,
    )
  );
}

function violationsOf(parameter: ParameterModel, rule: Rule, maxDigits: number): fc.Arbitrary<ParameterViolation> | undefined {
  const { name } = parameter;
  const inHeader = parameter.in === 'header';
  const encode = (text: string) => (inHeader ? headerText(text) : percentEncode(text));
  const types = typesOf(parameter.schema);
  const numeric = types.includes('integer') || types.includes('number');
  const wire = (texts: fc.Arbitrary<string>, why: (text: string) => string) =>
    texts.map((text) => ({ encoded: encode(text), why: why(text) }));
  switch (rule) {
    case 'missing required':
      return parameter.required && parameter.in !== 'path' && !hasDefault(parameter.schema)
        ? fc.constant({ encoded: undefined, why: `${parameter.in} parameter ${name} is missing`, missingHeader: parameter.in === 'header' })
        : undefined;
    case 'extra property':
      return undefined;
    case 'wrong type': {
      const texts = types.flatMap((type) => WRONG_TYPE_TEXTS[type] ?? []).filter((text) => !(parameter.in === 'path' && text === ''));
      if (!texts.length || types.includes('string')) return undefined;
      return wire(pick(...texts), (text) => `${name} = ${JSON.stringify(text)} has the wrong type`);
    }
    case 'out of bounds': {
      const broken = brokenValues(parameter.schema, rule)?.map(textOf);
      // A bound the schema states: a maximum, or a format of a known range (int32, int64); a format
      // the tester does not know (`format: integer`) bounds nothing.
      const format = parameter.schema['format'];
      const ranged = typeof format === 'string' && FORMATS[format]?.range !== undefined;
      const huge = numeric && (parameter.schema['maximum'] !== undefined || ranged);
      // Numbers no integer type can hold (twenty nines are past 2^64), as long as a request target may be.
      const long = fc.integer({ min: 20, max: inHeader ? 400 : maxDigits }).map((count) => digits(count));
      const texts = broken && huge ? fc.oneof(broken, long) : (broken ?? (huge ? long : undefined));
      return (
        texts && wire(texts, (text) => `${name} = ${text.length > 40 ? `${text.length} digits` : JSON.stringify(text)} is out of bounds`)
      );
    }
    case 'bad enum value':
    case 'bad format':
    case 'bad pattern': {
      const broken = brokenValues(parameter.schema, rule);
      return broken?.map((value) => ({ encoded: encode(textOf(value)), why: `${name}: ${value.why}` }));
    }
    case 'non-canonical number': {
      if (!types.includes('integer')) return undefined;
      const valid = keepWhere(
        validParameterValue(parameter),
        (value): value is number | bigint => typeof value === 'number' || typeof value === 'bigint',
        'a valid number',
      );
      return fc
        .tuple(valid, fc.nat())
        .map(([value, pick]) => {
          const texts = nonCanonicalTexts(value, inHeader);
          return texts[pick % texts.length]!;
        })
        .map((text) => ({ encoded: encode(text), why: `${name} = ${JSON.stringify(text)} is not a canonical integer` }));
    }
    case 'badly encoded text': {
      if (!types.includes('string') || 'enum' in parameter.schema) return undefined;
      const valid = keepWhere(validParameterValue(parameter), (value): value is string => typeof value === 'string', 'a valid string');
      // Percent-encoded bytes that are not UTF-8 (or not percent-encoding); in a header, Latin-1 bytes.
      const bad = inHeader ? pick('\xff', '\xe9', '\x80') : pick(...BAD_PERCENT_ENCODING);
      return fc.tuple(valid, fc.nat(), bad).map(([text, at, unit]) => {
        const chars = [...text];
        const index = chars.length ? at % chars.length : 0;
        const before = chars.slice(0, index).join('');
        const after = chars.slice(index + 1).join('');
        const shown = inHeader ? `\\x${unit.charCodeAt(0).toString(16)}` : unit;
        return { encoded: encode(before) + unit + encode(after), why: `${name} holds ${shown}, which is not UTF-8 text` };
      });
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Bodies: one value somewhere in the JSON changed, or a property taken away or added.

type Step = string | 0;

/** A place in a body where a schema applies: a property (by name) or an array item (index 0). */
interface Site {
  path: Step[];
  schema: Schema;
  /** The schemas of the values on the way there, from the body itself to the site. */
  chain: Schema[];
  /**
   * Inside a branch of a oneOf or anyOf: the depth whose value is replaced by a valid value of that
   * branch (its fill), so that the rule is broken inside the branch the value takes.
   */
  pinned?: number;
}

function sitesOf(raw: Schema, path: Step[] = [], chain: Schema[] = [], depth = 0, pinned?: number): Site[] {
  if (isRecursionCut(raw)) return [];
  const schema = mergeAllOf(raw);
  const here: Site = { path, schema, chain: [...chain, schema], ...(pinned !== undefined ? { pinned } : {}) };
  if (depth > 6) return [here];
  const branches = (schema['oneOf'] ?? schema['anyOf']) as Schema[] | undefined;
  if (Array.isArray(branches)) {
    // Each branch is a site of its own, with what the schema says beside the choice
    // (unevaluatedProperties: false, say), at the same place.
    const { oneOf: _oneOf, anyOf: _anyOf, ...base } = schema;
    const inBranches = branches
      .filter((branch) => makeable(branch))
      .flatMap((branch) => sitesOf({ ...base, ...mergeAllOf(branch) }, path, chain, depth + 1, chain.length));
    return [here, ...inBranches];
  }
  const properties = (schema['properties'] as Record<string, Schema> | undefined) ?? {};
  // A readOnly property is the server's: a client's value of it may be ignored as well as refused,
  // so no value of it breaks the request.
  const nested = Object.entries(properties)
    .filter(([, property]) => !goesOtherWay(property, 'request'))
    .flatMap(([name, property]) => sitesOf(property, [...path, name], here.chain, depth + 1, pinned));
  const items = schema['items'] as Schema | undefined;
  if (items && typeof items === 'object') nested.push(...sitesOf(items, [...path, 0], here.chain, depth + 1));
  return [here, ...nested];
}

type Change = { set: JsonValue } | { remove: string } | { add: [string, JsonValue] };

/**
 * The body with one change at the path; `fills` are valid values for containers missing on the way
 * (and for the one at `pinned`, whatever was there: a value of the branch the change is in).
 */
function applyChange(node: JsonValue | undefined, path: Step[], fills: JsonValue[], change: Change, depth = 0, pinned?: number): JsonValue {
  const current = depth === pinned ? fills[depth]! : (node ?? fills[depth]!);
  if (depth === path.length) {
    if ('set' in change) return change.set;
    const object = { ...(current as Record<string, JsonValue>) };
    if ('remove' in change) delete object[change.remove];
    else define(object, change.add[0], change.add[1]);
    return object;
  }
  const step = path[depth]!;
  if (step === 0) {
    const array = Array.isArray(current) ? [...current] : [];
    array[0] = applyChange(array[0], path, fills, change, depth + 1, pinned);
    return array;
  }
  const object =
    current !== null && typeof current === 'object' && !Array.isArray(current) ? { ...(current as Record<string, JsonValue>) } : {};
  define(object, step, applyChange(Object.hasOwn(object, step) ? object[step] : undefined, path, fills, change, depth + 1, pinned));
  return object;
}

/** Sets an own property, even one named `__proto__` (a name worth sending: fast-check makes it). */
function define(object: Record<string, JsonValue>, name: string, value: JsonValue): void {
  Object.defineProperty(object, name, { value, enumerable: true, writable: true, configurable: true });
}

const describePath = (path: Step[]) => `body${path.map((step) => (step === 0 ? '[0]' : `.${step}`)).join('')}`;

function siteChanges(site: Site, rule: Rule, propertyNames: readonly string[]): fc.Arbitrary<{ change: Change; why: string }> | undefined {
  const where = describePath(site.path);
  if (rule === 'missing required') {
    const properties = (site.schema['properties'] as Record<string, unknown> | undefined) ?? {};
    const required = ((site.schema['required'] as string[] | undefined) ?? []).filter((name) => !hasDefault(properties[name]));
    if (!required.length) return undefined;
    return pick(...required).map((name) => ({ change: { remove: name }, why: `${describePath([...site.path, name])} is missing` }));
  }
  if (rule === 'extra property') {
    const closed = site.schema['additionalProperties'] === false || site.schema['unevaluatedProperties'] === false;
    if (!closed || !typesOf(site.schema).includes('object')) return undefined;
    const known = new Set(Object.keys((site.schema['properties'] as object | undefined) ?? {}));
    // Names of other schemas' properties (a client sending `id`) and made-up ones.
    const others = propertyNames.filter((name) => !known.has(name));
    const names = fc.oneof(
      ...(others.length ? [pick(...others)] : []),
      keepWhere(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 12 }), (name) => !known.has(name), 'an unknown name'),
    );
    return fc.tuple(names, fc.jsonValue({ maxDepth: 1 }) as fc.Arbitrary<JsonValue>).map(([name, value]) => ({
      change: { add: [name, value] },
      why: `${describePath([...site.path, name])} is not a property of the schema`,
    }));
  }
  return brokenValues(site.schema, rule)?.map(({ value, why }) => ({ change: { set: value }, why: `${where}: ${why}` }));
}

/** The JSON media type of an operation's body, if it takes one: where the body's rules are broken. */
function jsonMedia(operation: OperationModel): MediaModel | undefined {
  return operation.body?.media.find(({ kind }) => kind === 'json');
}

function bodyViolations(operation: OperationModel, rule: Rule, propertyNames: readonly string[]): fc.Arbitrary<Violation> | undefined {
  const body = operation.body;
  if (!body) return undefined;
  const options: fc.Arbitrary<Violation>[] = [];
  const media = jsonMedia(operation);
  for (const site of media ? sitesOf(media.schema) : []) {
    const changes = siteChanges(site, rule, propertyNames);
    if (!changes) continue;
    const fills = fc.tuple(...site.chain.map((schema) => validValue(schema) as fc.Arbitrary<JsonValue>));
    let broken = fc
      .tuple(validJson(media!.schema), fills, changes)
      .map(([valid, filled, { change, why }]) => ({ why, value: applyChange(valid, site.path, filled, change, 0, site.pinned) }));
    // Inside a branch, a value that breaks it may still be another branch's: only what the whole
    // schema refuses is a negative case.
    if (site.pinned !== undefined) {
      broken = keepWhere(broken, ({ value }) => !isValid(media!.schema, value), 'a body no branch takes');
      if (!makesValues(broken)) continue;
    }
    options.push(broken.map(({ why, value }) => ({ why, apply: (parts) => ({ ...parts, body: { mediaType: media!.mediaType, value } }) })));
  }
  if (rule === 'missing required' && body.required) {
    options.push(fc.constant({ why: 'the required body is missing', apply: (parts) => withoutBody(parts) }));
  }
  return options.length ? fc.oneof(...options) : undefined;
}

function withoutBody(parts: RequestParts): RequestParts {
  const { body: _body, ...rest } = parts;
  return rest;
}

/** Bodies labelled JSON that are not: cut short, with trailing text, UTF-16, empty (when a body is required), a form, single quotes. */
function notJson(operation: OperationModel): fc.Arbitrary<Violation> | undefined {
  const media = jsonMedia(operation);
  if (!media) return undefined;
  const ways = ['cut', 'trailing', 'utf-16', ...(operation.body!.required ? ['empty'] : []), 'form', 'single quotes'];
  const malformed = fc.tuple(validJson(media.schema), pick(...ways)).map(([valid, how]) => {
    const text = encodeJson(valid).toString('utf8');
    const bytes =
      how === 'cut'
        ? Buffer.from(text.slice(0, Math.max(1, text.length - 1)))
        : how === 'trailing'
          ? Buffer.from(`${text}x`)
          : how === 'utf-16'
            ? Buffer.from(text, 'utf16le')
            : how === 'empty'
              ? Buffer.alloc(0)
              : how === 'form'
                ? Buffer.from('name=x')
                : Buffer.from(text.replace(/"/g, "'"));
    return { how, bytes };
  });
  // `{}` has no quotes to change, `12` cut short is `1`: still JSON, so not this rule's.
  return keepWhere(malformed, ({ bytes }) => !isJsonText(bytes), 'a body that is not JSON').map(({ how, bytes }) => ({
    why: `the body is not JSON (${how})`,
    apply: (parts: RequestParts) => ({ ...parts, body: { mediaType: media.mediaType, bytes } }),
  }));
}

function isJsonText(bytes: Buffer): boolean {
  try {
    JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    return true;
  } catch {
    return false;
  }
}

const OTHER_MEDIA_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'application/xml',
  'multipart/form-data; boundary=x',
  'application/json; charset=iso-8859-1',
  'application/octet-stream',
];

function bodyRuleViolations(
  api: ApiModel,
  operation: OperationModel,
  rule: (typeof BODY_RULES)[number],
): fc.Arbitrary<Violation> | undefined {
  const body = operation.body;
  const media = jsonMedia(operation);
  if (!body || !media) return undefined;
  if (rule === 'malformed body') {
    // Not-JSON bytes are still a valid body where a text or binary media type is taken.
    return body.media.every(({ kind }) => kind === 'json' || kind === 'form' || kind === 'multipart') ? notJson(operation) : undefined;
  }
  if (rule === 'unsupported media type') {
    const taken = body.media.map(({ mediaType }) => mediaType.toLowerCase());
    const others = OTHER_MEDIA_TYPES.filter((type) => !taken.includes(type.split(';')[0]!) && !taken.includes(type));
    if (body.media.some(({ mediaType }) => mediaType.includes('*'))) return undefined;
    return fc.tuple(validJson(media.schema), fc.option(pick(...others), { nil: undefined, freq: 5 })).map(([valid, mediaType]) => ({
      why: mediaType === undefined ? 'the body has no Content-Type' : `Content-Type ${mediaType} is not one the operation takes`,
      apply: (parts) => ({ ...parts, body: { mediaType, bytes: encodeJson(valid) } }),
    }));
  }
  const limit = api.maxRequestBodyBytes;
  if (limit === undefined) return undefined;
  // Valid JSON, made too large by white space alone.
  return fc.tuple(validJson(media.schema), fc.integer({ min: 1, max: 512 })).map(([valid, over]) => {
    const text = encodeJson(valid);
    const padding = Math.max(0, limit + over - text.length);
    return {
      why: `the body is ${text.length + padding} bytes, over x-max-request-body-bytes (${limit})`,
      apply: (parts) => ({ ...parts, body: { mediaType: media.mediaType, bytes: Buffer.concat([text, Buffer.alloc(padding, 0x20)]) } }),
    };
  });
}

/** Every property name the document's schemas declare (candidates for an extra property). */
export function declaredPropertyNames(api: ApiModel): string[] {
  // Every operation asks for every rule: walking the components each time made planning a spec of
  // thousands of operations take minutes.
  let names = declaredNames.get(api.document);
  if (!names) declaredNames.set(api.document, (names = collectPropertyNames(api)));
  return names;
}

const declaredNames = new WeakMap<object, string[]>();

function collectPropertyNames(api: ApiModel): string[] {
  const names = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) node.forEach(visit);
    else if (node !== null && typeof node === 'object') {
      const properties = (node as Record<string, unknown>)['properties'];
      if (properties && typeof properties === 'object') Object.keys(properties).forEach((name) => names.add(name));
      Object.values(node).forEach(visit);
    }
  };
  visit(api.document.components);
  return [...names].sort();
}

/**
 * Requests that break exactly one rule for an operation: a valid request (with the tester's key)
 * with one parameter, one value in the body, or the body as a whole made wrong. Undefined when the
 * rule has nothing to break in this operation.
 */
export function negativeCases(
  api: ApiModel,
  operation: OperationModel,
  rule: NegativeRule,
  credentials: RequestCredentials,
  options: PositiveOptions = {},
): fc.Arbitrary<NegativeCase> | undefined {
  const violations: fc.Arbitrary<Violation>[] = [];
  if ((BODY_RULES as readonly string[]).includes(rule)) {
    const violation = bodyRuleViolations(api, operation, rule as (typeof BODY_RULES)[number]);
    if (violation) violations.push(violation);
  } else {
    // A parameter the server ignores when it cannot use it has no value that breaks the contract.
    for (const parameter of operation.parameters.filter(({ ignoredIfInvalid }) => !ignoredIfInvalid)) {
      const broken = parameterViolations(parameter, rule as Rule, maxDigitsInUrl(api));
      if (broken) {
        violations.push(
          broken.map(({ encoded, why, missingHeader }) => ({
            why,
            ...(missingHeader ? { missingHeader } : {}),
            apply: (parts) => setParameter(parts, parameter, encoded),
          })),
        );
      }
    }
    const inBody = bodyViolations(operation, rule as Rule, declaredPropertyNames(api));
    if (inBody) violations.push(inBody);
  }
  if (!violations.length) return undefined;
  return fc.tuple(positiveParts(operation, api.basePath, credentials, options), fc.oneof(...violations)).map(([parts, violation]) => ({
    request: buildRequest(violation.apply(parts)),
    why: violation.why,
    rule: violation.missingHeader ? MISSING_HEADER : rule,
    rebuild: (change) => buildRequest(violation.apply(change(parts))),
  }));
}
