import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseSpec } from '../../src/spec/load.js';
import type { OpenApiDocument } from '../../src/spec/openapi.js';

// The pet store at the repository's root is the API these tests hold the tester to: its
// openapi.yaml, its house rules (contract-test.config.json), its server in process on either backend
// (real, or with a fault planted) and its built server. Only the tests reach into it, and only
// through this file; the tester itself imports nothing of it.
export { apiError, contractFromDocument, createHandlers } from '../../../../test/support/pet-store-parts.js';
export type { OperationHandlers, OperationResult } from '../../../../test/support/pet-store-parts.js';
export { backends } from '../../../../test/support/backends.js';
export { PET_STORE_PROFILE } from '../../../../test/support/contract-check.js';
export { runKeys, startServer, tempDatabaseUrl, type RunningServer } from '../../../../test/support/processes.js';
export { createTestApi, openTestStorage, type TestApi } from '../../../../test/support/test-app.js';

export const PET_STORE_SPEC = fileURLToPath(new URL('../../../../openapi.yaml', import.meta.url));
export const PET_STORE_CONFIG = fileURLToPath(new URL('../../../../contract-test.config.json', import.meta.url));

let document: OpenApiDocument | undefined;

/** The pet store's openapi.yaml, read by the tester's own reader (as the CLI reads a --spec). */
export function petStoreDocument(): OpenApiDocument {
  document ??= parseSpec(readFileSync(PET_STORE_SPEC, 'utf8'));
  return document;
}
