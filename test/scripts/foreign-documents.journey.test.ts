import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyProject, removeProjectCopy } from '../../scripts/project-copy.js';
import { readContract } from '../../src/contract/read-contract.js';
import { parseSpec } from '../../src/contract/spec.js';
import { expectUnimplementedAndRefused, FOREIGN_DOCUMENTS, runInCopy, testWithoutHandlers } from '../support/foreign-documents.js';
import { QUOTA_NEVER_REACHED, startServer, tempDatabaseUrl, type RunningServer } from '../support/processes.js';

/**
 * What a new team does with its own document, as docs/starting-from-your-document.md says, on a copy
 * of the project: `npm run new-api` with each of two public documents of other shapes
 * (test/support/foreign-documents.ts), which removes the pet store example; `npm run build` (the
 * typecheck, then the bundles); the built server started; and the contract tester held against it:
 * 0 failures, every operation answering 501 in the document's error format until it has a handler.
 */

const require = createRequire(import.meta.url);

// Per document: new-api (a generator run), a typecheck and a build, a server start and a contract-test run, on a busy machine.
describe.each(FOREIGN_DOCUMENTS)(
  'a new team starting from a public document: $name (on a copy of the project)',
  { timeout: 600_000 },
  ({ file }) => {
    let copy: string;
    let server: RunningServer;
    let key: string;
    const at = (path: string) => join(copy, path);
    const contract = () => readContract(parseSpec(readFileSync(at('openapi.yaml'), 'utf8')));

    beforeAll(async () => {
      copy = copyProject();
      runInCopy(copy, 'npm', ['run', 'new-api', '--', require.resolve(file)]);
      // npm run build runs npm run typecheck first, on the server, its tests and every package.
      runInCopy(copy, 'npm', ['run', 'build']);
      server = await startServer({ DATABASE_URL: tempDatabaseUrl(), ...QUOTA_NEVER_REACHED }, { cwd: copy });
      // The first start makes an account "admin" and prints its key.
      key = server.output.map((line) => /^\s+(psk_\S+)$/.exec(line)?.[1]).find(Boolean)!;
    }, 480_000);
    afterAll(async () => {
      await server?.stop();
      if (copy) removeProjectCopy(copy);
    });

    it('npm run new-api removed the pet store example and scaffolded a handler answering 501 for each operation', () => {
      expect(() => readFileSync(at('src/handlers/create-pet.ts'))).toThrow(/ENOENT/);
      for (const { operation } of contract().operations) {
        const kebab = operation.operationId.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`);
        expect(readFileSync(at(`src/handlers/${kebab}.ts`), 'utf8')).toContain('not_implemented');
      }
    });

    it('passes the contract tester with 0 failures', async () => {
      const stdout = await testWithoutHandlers(copy, contract(), server.baseUrl, key);
      expect(stdout).toMatch(/\d+ scenarios: \d+ passed, 0 failed, 0 skipped; 0 failures;/);
    });

    it("answers an operation without a handler 501, and a request without credentials 401, in the document's error format", async () => {
      await expectUnimplementedAndRefused(contract(), server.baseUrl, 'admin', key);
    });
  },
);
