import fc from 'fast-check';
import type { MediaModel, OperationModel, ParameterModel } from '../spec/model.js';
import { bodyValues, type RequestBody } from './bodies.js';
import { encodeJson, jsonText } from './json-text.js';
import { keepWhere } from './bounded-filter.js';
import { isValid } from './schema-validator.js';
import { validValue } from './valid-values.js';

/** A header as sent; `value` is Latin-1 text (one byte per character). */
export interface Header {
  name: string;
  value: string;
}

/**
 * One credential as a request carries it: where it goes, and the environment variable that holds
 * its secret. Requests, reports and replay commands name the variable; only the client, when it
 * sends, reads the value (see Secrets).
 */
export interface Credential {
  /** The security scheme it fills, or `-H` for a header given on the command line. */
  scheme: string;
  place: 'header' | 'query' | 'cookie';
  name: string;
  /** What goes before the secret: `Bearer `, `Basic ` (the secret then base64-encoded). */
  prefix: string;
  variable: string;
  basic?: boolean;
}

/** A request target's path and its query (without the `?`), if it has one. */
export function splitTarget(target: string): [string, string | undefined] {
  const index = target.indexOf('?');
  return index < 0 ? [target, undefined] : [target.slice(0, index), target.slice(index + 1)];
}

/**
 * How a request carries credentials: valid ones (as the operation's security says; the -H headers
 * with them), none at all, or forged ones (and none of the -H headers that hold a secret).
 */
export type RequestCredentials =
  { kind: 'valid'; credentials: Credential[] } | { kind: 'none' } | { kind: 'forged'; headers: Header[]; query: Array<[string, string]> };

/** One HTTP request, byte for byte what the tester sends (apart from the secrets, filled in at sending). */
export interface TestRequest {
  method: string;
  /** The request target below the origin: the base path, the operation's path with its parameters, and the query. */
  target: string;
  headers: Header[];
  credentials: RequestCredentials;
  body?: Buffer;
}

/**
 * A request still in its parts, so that a negative case can change exactly one of them. Path and
 * query values are already percent-encoded; header values are Latin-1 text.
 */
export interface RequestParts {
  method: string;
  path: string;
  pathParameters: Record<string, string>;
  query: Array<[string, string]>;
  headers: Header[];
  credentials: RequestCredentials;
  body?: RequestBody;
}

/** Where a credential travels: a header's name in any case, a query parameter's or a cookie's as written. */
export function placeKey(place: 'header' | 'query' | 'cookie', name: string): string {
  return `${place} ${place === 'header' ? name.toLowerCase() : name}`;
}

export const NO_CREDENTIALS: RequestCredentials = { kind: 'valid', credentials: [] };

/** Percent-encodes text for a path segment or a query value (RFC 3986 unreserved characters stay). */
export function percentEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A primitive value as text, OpenAPI's serialisation of one. */
export function parameterText(value: unknown): string {
  return typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'bigint' || typeof value === 'boolean'
      ? String(value)
      : value === null
        ? ''
        : jsonText(value);
}

/** The body's bytes and Content-Type as sent. */
export function bodyBytes(body: RequestBody): Buffer {
  return 'bytes' in body ? body.bytes : encodeJson(body.value);
}

export function buildRequest(parts: RequestParts): TestRequest {
  const path = parts.path.replace(/\{([^}]+)\}/g, (_, name: string) => parts.pathParameters[name] ?? '');
  const query = parts.query.map(([name, value]) => `${percentEncode(name)}=${value}`).join('&');
  const headers = [...parts.headers];
  let body: Buffer | undefined;
  if (parts.body) {
    body = bodyBytes(parts.body);
    if (parts.body.mediaType !== undefined) headers.push({ name: 'Content-Type', value: parts.body.mediaType });
  }
  const request: TestRequest = { method: parts.method, target: query ? `${path}?${query}` : path, headers, credentials: parts.credentials };
  if (body) request.body = body;
  return request;
}

function inHeaderOrCookie(parameter: ParameterModel): boolean {
  return parameter.in === 'header' || parameter.in === 'cookie';
}

/**
 * Whether an empty value of the parameter is no value at all: an empty path segment is another
 * path, and `name=` is the parameter left out where the spec does not allow empty values.
 */
export function emptyMeansAbsent(parameter: ParameterModel): boolean {
  return parameter.in === 'path' || (parameter.in === 'query' && !parameter.allowEmptyValue);
}

/**
 * Valid values of a parameter: what its schema allows, checked by the validator. A header or cookie
 * carries printable ASCII, without white space at its ends (HTTP drops it, RFC 9110 §5.5); an item
 * of a list is never empty and has no comma when the list is written with commas.
 */
export function validParameterValue(parameter: ParameterModel): fc.Arbitrary<unknown> {
  const ascii = inHeaderOrCookie(parameter);
  const joined = !(parameter.in === 'query' && parameter.explode);
  const fine = (text: string) => !(ascii && /^\s|\s$/.test(text));
  const emptyIsAbsent = emptyMeansAbsent(parameter);
  return keepWhere(
    validValue(parameter.schema, { ascii }),
    (value) => {
      if (!isValid(parameter.schema, value)) return false;
      if (!Array.isArray(value)) return fine(parameterText(value)) && !(emptyIsAbsent && parameterText(value) === '');
      // No item: an empty text where joined, no name=value pair at all where exploded.
      if (value.length === 0 && (emptyIsAbsent || (parameter.required && !joined))) return false;
      const texts = value.map(parameterText);
      return texts.every((text) => text !== '' && fine(text) && !(joined && text.includes(',')));
    },
    `a valid value of ${parameter.in} parameter ${parameter.name}`,
  );
}

/**
 * Text as a header value can carry it: characters beyond Latin-1 as their UTF-8 bytes (obs-text),
 * control characters, which no header can hold, as spaces.
 */
export function headerText(text: string): string {
  const latin1 = Buffer.from(text, 'utf8').toString('latin1');
  return [...latin1].map((char) => (char === '\t' || (char >= ' ' && char !== '\x7f') ? char : ' ')).join('');
}

/**
 * A parameter's value as it goes on the wire: percent-encoded in the path and query, header text
 * in a header or cookie. A list is one text with commas (style simple, or form without explode), or
 * several (form with explode: repeated name=value pairs).
 */
export function encodeParameter(parameter: ParameterModel, value: unknown): string | string[] {
  const encode = (text: string) => (inHeaderOrCookie(parameter) ? headerText(text) : percentEncode(text));
  if (!Array.isArray(value)) return encode(parameterText(value));
  const items = value.map((item) => encode(parameterText(item)));
  return parameter.in === 'query' && parameter.explode ? items : items.join(',');
}

export interface PositiveOptions {
  /**
   * Optional parameters whose valid values only links give (a cursor): left out here, sent only as
   * a link gives them.
   */
  linkSupplied?: ReadonlySet<string>;
}

/** Where a parameter goes in the request parts; undefined takes it out. */
export function setParameter(parts: RequestParts, parameter: ParameterModel, encoded: string | string[] | undefined): RequestParts {
  const next: RequestParts = {
    ...parts,
    pathParameters: { ...parts.pathParameters },
    query: [...parts.query],
    headers: [...parts.headers],
  };
  const single = Array.isArray(encoded) ? encoded.join(',') : encoded;
  switch (parameter.in) {
    case 'path':
      next.pathParameters[parameter.name] = single ?? '';
      break;
    case 'query':
      next.query = next.query.filter(([name]) => name !== parameter.name);
      for (const value of encoded === undefined ? [] : Array.isArray(encoded) ? encoded : [encoded])
        next.query.push([parameter.name, value]);
      break;
    case 'header':
      next.headers = next.headers.filter(({ name }) => name.toLowerCase() !== parameter.name.toLowerCase());
      if (single !== undefined) next.headers.push({ name: parameter.name, value: single });
      break;
    case 'cookie': {
      const others = next.headers.filter(({ name }) => name.toLowerCase() === 'cookie').flatMap(({ value }) => value.split('; '));
      const cookies = others.filter((cookie) => !cookie.startsWith(`${parameter.name}=`));
      if (single !== undefined) cookies.push(`${parameter.name}=${single}`);
      next.headers = next.headers.filter(({ name }) => name.toLowerCase() !== 'cookie');
      if (cookies.length) next.headers.push({ name: 'Cookie', value: cookies.join('; ') });
      break;
    }
  }
  return next;
}

/** The empty request of an operation: its method and path template, the given credentials. */
export function emptyParts(operation: OperationModel, basePath: string, credentials: RequestCredentials): RequestParts {
  return {
    method: operation.method.toUpperCase(),
    path: basePath + operation.path,
    pathParameters: {},
    query: [],
    headers: [],
    credentials,
  };
}

/** Valid bodies of an operation, of the media types the tester can make: JSON most often. */
export function validBodies(operation: OperationModel): fc.Arbitrary<RequestBody> | undefined {
  const media = (operation.body?.media ?? []).filter(
    (candidate): candidate is MediaModel & { kind: NonNullable<MediaModel['kind']> } => !!candidate.kind,
  );
  if (!media.length) return undefined;
  return fc.oneof(
    { withCrossShrink: true },
    ...media.map((candidate) => ({ weight: candidate.kind === 'json' ? 4 : 1, arbitrary: bodyValues(candidate) })),
  );
}

/**
 * Requests valid by the spec for an operation, with the given credentials: every required
 * parameter, optional ones now and then, and a valid body of a media type the operation takes.
 */
export function positiveParts(
  operation: OperationModel,
  basePath: string,
  credentials: RequestCredentials,
  options: PositiveOptions = {},
): fc.Arbitrary<RequestParts> {
  const linkSupplied = options.linkSupplied ?? new Set<string>();
  const parameters = operation.parameters.filter((parameter) => parameter.required || !linkSupplied.has(parameter.name));
  const values = parameters.map((parameter) => {
    const value = validParameterValue(parameter).map((raw) => encodeParameter(parameter, raw));
    return parameter.required ? value : fc.option(value, { nil: undefined, freq: 2 });
  });
  const bodies = validBodies(operation);
  const body = bodies ?? fc.constant(undefined);
  const withBody = operation.body && !operation.body.required ? fc.option(body, { nil: undefined, freq: 4 }) : body;
  return fc.tuple(fc.tuple(...values), withBody).map(([encoded, requestBody]) => {
    let parts = emptyParts(operation, basePath, credentials);
    parameters.forEach((parameter, index) => {
      if (encoded[index] !== undefined) parts = setParameter(parts, parameter, encoded[index]);
    });
    if (requestBody) parts.body = requestBody;
    return parts;
  });
}
