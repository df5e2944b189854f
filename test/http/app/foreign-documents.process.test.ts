import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContract } from '../../../src/contract/read-contract.js';
import { parseSpec } from '../../../src/contract/spec.js';
import { apiError } from '../../../src/errors/api-error.js';
import type { OperationHandlers } from '../../../src/handlers/operation.js';
import { issueApiKey } from '../../../src/auth/api-keys.js';
import { listen } from '../../../src/http/listen.js';
import { createHttpServer } from '../../../src/http/server.js';
import { createLogger } from '../../../src/log/logger.js';
import { openStorage } from '../../../src/storage/open-storage.js';
import type { Storage } from '../../../src/storage/storage.js';
import { sqliteBackend } from '../../support/backends.js';
import { CHECKS_WITHOUT_HANDLERS, expectUnimplementedAndRefused, FOREIGN_DOCUMENTS } from '../../support/foreign-documents.js';

/**
 * Two public OpenAPI 3.0 documents of other shapes (test/support/foreign-documents.ts), served as
 * they are by the stack with no handler written (each operation answering 501, as a scaffolded
 * handler does), in process; the contract tester holds the stack to each with the checks a server
 * without handlers can meet. test/scripts/foreign-documents.journey.test.ts does the same as a new
 * team would, on a copy of the project. docs/starting-from-your-document.md
 */
const require = createRequire(import.meta.url);

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

describe.each(FOREIGN_DOCUMENTS)('a public document the stack was not written for: $name', { timeout: 120_000 }, ({ file }) => {
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
        ...['--checks', CHECKS_WITHOUT_HANDLERS.join(','), '--requests', '200', '--seed', '1'],
      ],
      { encoding: 'utf8' },
    );
    expect(stdout).toMatch(/\d+ scenarios: \d+ passed, 0 failed, 0 skipped; 0 failures;/);
  });

  it("answers an operation without a handler 501, and a request without credentials 401, in the document's error format", async () => {
    await expectUnimplementedAndRefused(contract, `${t.origin}${contract.basePath}`, 'tester', t.key);
  });
});
