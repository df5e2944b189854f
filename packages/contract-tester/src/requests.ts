import fc from 'fast-check';
import { encodeJson, type JsonValue } from './json-text.js';
import { isValid } from './schema-validator.js';
import type { CredentialScheme, OperationModel, ParameterModel } from './spec-model.js';
import { validValue } from './valid-values.js';

/** A header as sent; `value` is Latin-1 text (one byte per character). */
export interface Header {
  name: string;
  value: string;
}

/** How a request carries credentials: the tester's key (as the operation's schemes say), none, or these headers. */
export type Credentials = { kind: 'key'; schemes: CredentialScheme[] } | { kind: 'none' } | { kind: 'headers'; headers: Header[] };

/** One HTTP request, byte for byte what the tester sends (apart from the key, filled in at sending). */
export interface TestRequest {
  method: string;
  /** The request target below the base URL: the operation's path with its parameters, and the query. */
  target: string;
  headers: Header[];
  credentials: Credentials;
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
  credentials: Credentials;
  body?: { mediaType: string; value: JsonValue } | { mediaType: string | undefined; bytes: Buffer };
}

/** Percent-encodes text for a path segment or a query value (RFC 3986 unreserved characters stay). */
export function percentEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A parameter value as text, OpenAPI's default serialisation of a primitive. */
export function parameterText(value: unknown): string {
  return typeof value === 'string'
    ? value
    : typeof value === 'number' || typeof value === 'boolean'
      ? String(value)
      : JSON.stringify(value);
}

export function buildRequest(parts: RequestParts): TestRequest {
  const path = parts.path.replace(/\{([^}]+)\}/g, (_, name: string) => parts.pathParameters[name] ?? '');
  const query = parts.query.map(([name, value]) => `${percentEncode(name)}=${value}`).join('&');
  const headers = [...parts.headers];
  let body: Buffer | undefined;
  if (parts.body) {
    body = 'bytes' in parts.body ? parts.body.bytes : encodeJson(parts.body.value);
    if (parts.body.mediaType !== undefined) headers.push({ name: 'Content-Type', value: parts.body.mediaType });
  }
  const request: TestRequest = { method: parts.method, target: query ? `${path}?${query}` : path, headers, credentials: parts.credentials };
  if (body) request.body = body;
  return request;
}

/**
 * Valid values of a parameter: what its schema allows, checked by the validator. A header or cookie
 * carries printable ASCII, without white space at its ends (HTTP drops it, RFC 9110 §5.5).
 */
export function validParameterValue(parameter: ParameterModel): fc.Arbitrary<unknown> {
  const inHeader = parameter.in === 'header' || parameter.in === 'cookie';
  return validValue(parameter.schema, { ascii: inHeader }).filter(
    (value) => isValid(parameter.schema, value) && !(inHeader && /^\s|\s$/.test(parameterText(value))),
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

function encodeFor(parameter: ParameterModel, value: unknown): string {
  const text = parameterText(value);
  return parameter.in === 'header' ? headerText(text) : percentEncode(text);
}

export interface PositiveOptions {
  /**
   * Optional parameters whose valid values only links give (a cursor): left out here, sent only as
   * a link gives them.
   */
  linkSupplied?: ReadonlySet<string>;
}

/** Where a parameter goes in the request parts. */
export function setParameter(parts: RequestParts, parameter: ParameterModel, encoded: string | undefined): RequestParts {
  const next: RequestParts = {
    ...parts,
    pathParameters: { ...parts.pathParameters },
    query: [...parts.query],
    headers: [...parts.headers],
  };
  switch (parameter.in) {
    case 'path':
      next.pathParameters[parameter.name] = encoded ?? '';
      break;
    case 'query':
      next.query = next.query.filter(([name]) => name !== parameter.name);
      if (encoded !== undefined) next.query.push([parameter.name, encoded]);
      break;
    case 'header':
      next.headers = next.headers.filter(({ name }) => name.toLowerCase() !== parameter.name.toLowerCase());
      if (encoded !== undefined) next.headers.push({ name: parameter.name, value: encoded });
      break;
    case 'cookie': {
      const others = next.headers.filter(({ name }) => name.toLowerCase() === 'cookie').flatMap(({ value }) => value.split('; '));
      const cookies = others.filter((cookie) => !cookie.startsWith(`${parameter.name}=`));
      if (encoded !== undefined) cookies.push(`${parameter.name}=${encoded}`);
      next.headers = next.headers.filter(({ name }) => name.toLowerCase() !== 'cookie');
      if (cookies.length) next.headers.push({ name: 'Cookie', value: cookies.join('; ') });
      break;
    }
  }
  return next;
}

/** The JSON media type of a body, as a client would send it: bare, or with the UTF-8 charset. */
function jsonMediaType(operation: OperationModel): fc.Arbitrary<string> {
  const json = operation.body!.mediaTypes.find((type) => /json/i.test(type))!;
  return fc.oneof(
    { withCrossShrink: true },
    { weight: 4, arbitrary: fc.constant(json) },
    { weight: 1, arbitrary: fc.constant(`${json}; charset=utf-8`) },
  );
}

export function validBody(operation: OperationModel): fc.Arbitrary<JsonValue> {
  const schema = operation.body!.schema;
  return validValue(schema).filter((value) => isValid(schema, value)) as fc.Arbitrary<JsonValue>;
}

/**
 * Requests valid by the spec for an operation, with the tester's key: every required parameter,
 * optional ones now and then, and a valid body of a JSON media type the operation takes.
 */
export function positiveParts(operation: OperationModel, basePath: string, options: PositiveOptions = {}): fc.Arbitrary<RequestParts> {
  const linkSupplied = options.linkSupplied ?? new Set<string>();
  const parameters = operation.parameters.filter((parameter) => parameter.required || !linkSupplied.has(parameter.name));
  const values = parameters.map((parameter) => {
    const value = validParameterValue(parameter).map((raw) => encodeFor(parameter, raw));
    return parameter.required ? value : fc.option(value, { nil: undefined, freq: 2 });
  });
  const body = operation.body ? fc.record({ mediaType: jsonMediaType(operation), value: validBody(operation) }) : fc.constant(undefined);
  const withBody = operation.body && !operation.body.required ? fc.option(body, { nil: undefined, freq: 4 }) : body;
  return fc.tuple(fc.tuple(...values), withBody).map(([encoded, requestBody]) => {
    let parts: RequestParts = {
      method: operation.method.toUpperCase(),
      path: basePath + operation.path,
      pathParameters: {},
      query: [],
      headers: [],
      credentials: { kind: 'key', schemes: operation.credentials },
    };
    parameters.forEach((parameter, index) => {
      if (encoded[index] !== undefined) parts = setParameter(parts, parameter, encoded[index]);
    });
    if (requestBody) parts.body = requestBody;
    return parts;
  });
}
