import { describe } from 'vitest';
import { sqliteBackend } from '../../support/backends.js';
import { resourceStoreContract } from '../../support/resource-store.js';
import { openTestStorage } from '../../support/test-app.js';

// On a file, so that writes go through the writer thread and its batches, as the server's do.
describe('the generic resource store on SQLite', () => {
  resourceStoreContract(() => openTestStorage(sqliteBackend));
});
