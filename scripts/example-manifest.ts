// The pet store example: every file `npm run new-api` removes, and every file it resets to what a
// document of one's own starts from. test/scripts/example-manifest.test.ts holds it to the tree:
// the example is there whole (or, after npm run new-api, gone whole), and no file left after the
// removal imports one that is removed. The tests that check the tree's paths skip the example's.

/** Files of the example alone: its handlers, rules, hand-written store, client helpers, tests, examples. */
export const EXAMPLE_FILES: readonly string[] = [
  'src/handlers/create-pet.ts',
  'src/handlers/delete-pet.ts',
  'src/handlers/get-pet.ts',
  'src/handlers/list-pets.ts',
  'src/handlers/update-pet.ts',
  'src/rules/order.ts',
  'src/storage/pets/',
  'packages/client/src/pet-store-types.ts',
  'packages/client/src/conditional-writes.ts',
  'packages/client/src/list-all-pets.ts',
  'test/storage/pets/',
  'test/rules/order.test.ts',
  'test/handlers/create-pet.test.ts',
  'test/handlers/delete-pet.test.ts',
  'test/handlers/get-pet.test.ts',
  'test/handlers/list-pets.test.ts',
  'test/handlers/update-pet.test.ts',
  'test/http/app/create-pet.test.ts',
  'test/http/app/create-pet.idempotency.test.ts',
  'test/http/app/delete-pet.test.ts',
  'test/http/app/get-pet.test.ts',
  'test/http/app/list-pets.test.ts',
  'test/http/app/update-pet.test.ts',
  'test/http/app/store-orders.test.ts',
  'test/generated/store-order-handlers.test.ts',
  'packages/client/test/conditional-writes.process.test.ts',
  'packages/client/test/list-all-pets.process.test.ts',
  'examples/list-and-create.mjs',
  'test/examples/list-and-create.process.test.ts',
  // Tests written against the pet store's document (its paths, schemas and codes).
  'packages/client/test/support/client-scenario.ts',
  'packages/client/test/package/manifest.test.ts',
  'packages/client/test/package/install.process.test.ts',
  'test/storage/sqlite/resources.test.ts',
  'test/storage/postgres/resources.test.ts',
  'packages/client/test/support/pet-store.ts',
  'packages/client/test/scripts/build/bundle.process.test.ts',
  'packages/client/test/create-client.process.test.ts',
  'packages/client/test/deprecation.process.test.ts',
  'packages/client/test/errors.test.ts',
  'packages/client/test/exact-params.test-d.ts',
  'packages/client/test/idempotency-key.test.ts',
  'packages/client/test/index.test-d.ts',
  'packages/client/test/package/packed.browser.test.ts',
  'packages/client/test/support/client-api.ts',
  'packages/contract-tester/test/run/runner.faults.test.ts',
  'packages/contract-tester/test/stateful/listing-audit.test.ts',
  'packages/contract-tester/test/stateful/sequences.test.ts',
  'packages/contract-tester/test/stateful/session.test.ts',
  'test/dev/response-check.test.ts',
  'test/errors/registry.test.ts',
  'test/handlers/idempotency.test.ts',
  'test/handlers/links.test.ts',
  'test/handlers/operation.test-d.ts',
  'test/handlers/predecessor.test-d.ts',
  'test/handlers/predecessor.test.ts',
  'test/http/api-version.test.ts',
  'test/http/app/routing.test.ts',
  'test/http/docs.browser.test.ts',
  'test/http/lifecycle.test.ts',
  'test/http/middleware/authenticate.test.ts',
  'test/http/middleware/deprecation.test.ts',
  'test/http/middleware/error-handler.test.ts',
  'test/http/middleware/openapi-validator.formats.test.ts',
  'test/http/middleware/request-body.test.ts',
  'test/http/middleware/request-log.test.ts',
  'test/http/middleware/request-target.test.ts',
  'test/http/middleware/strict-parameters.test.ts',
  'test/http/operation-route.test.ts',
  'test/http/rate-limits/key-limit.test.ts',
  'test/http/server.test.ts',
  'test/storage/open-storage.test.ts',
  'test/storage/postgres/migrate.test.ts',
  'test/storage/postgres/pool.test.ts',
  'test/storage/resource-sql.test.ts',
  'test/storage/sqlite/migrate.test.ts',
  'test/storage/sqlite/sqlite-storage.test.ts',
  'test/storage/sqlite/write-batch.test.ts',
  'test/storage/sqlite/writer.test.ts',
  'test/storage/stored-tables.test.ts',
  'test/support/idempotency.ts',
  'test/support/resource-store.ts',
  'test/support/spec-values.ts',
  'test/support/store-of-1.1.0.ts',
];

/** Whether a path is one of the example's files (or under one of its folders): gone once `npm run new-api` ran. */
export function isExampleFile(path: string): boolean {
  return EXAMPLE_FILES.some((file) => (file.endsWith('/') ? path.startsWith(file) : path === file));
}

/** A reset: the file's new text, or how to make it from the example's. */
export type Reset = string | ((text: string) => string);

/** Files the example filled that a new API keeps, with what they hold in a new API. */
export const EXAMPLE_RESETS: Readonly<Record<string, Reset>> = {
  'src/errors/document-messages.ts': `import type { ERROR_STATUSES } from '../../generated/contract.js';
import type { StackErrorCode } from './stack-codes.js';

/** The codes the document's error-code table adds to the stack's own (none when it has no table). */
export type DocumentErrorCode = Exclude<keyof typeof ERROR_STATUSES, StackErrorCode>;

/**
 * The messages of this API's own error codes, those its handlers raise: written by hand, one per
 * code the document's error-code table adds (tsc fails while one is missing or left over).
 */
export const DOCUMENT_ERROR_MESSAGES = {} as const satisfies { [C in DocumentErrorCode]: string | ((params: never) => string) };
`,
  'packages/client/src/example.ts': `// Helpers of this API's own for the client (the pet store example had its own here); exported by index.ts.
export {};
`,
  // The stack's house rules stay; the pet store's Error schema and ErrorCode table are its own.
  'contract-test.config.json': (text) => {
    const { checks, ...config } = JSON.parse(text) as { checks: Record<string, unknown> };
    const { error_schema_conformance: _petStoreErrors, ...stackChecks } = checks;
    const $comment =
      "The stack's house rules for openapi-contract-tester, beyond what the spec and HTTP require: npm run contract-test turns them on (--config). See packages/contract-tester/README.md, Profiles.";
    return `${JSON.stringify({ ...config, $comment, name: "the stack's house rules", checks: stackChecks }, null, 2)}\n`;
  },
};
