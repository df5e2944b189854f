import { describe } from 'vitest';
import { postgresBackend } from '../../support/backends.js';
import { resourceStoreContract } from '../../support/resource-store.js';
import { openTestStorage } from '../../support/test-app.js';

describe('the generic resource store on PostgreSQL', () => {
  resourceStoreContract(() => openTestStorage(postgresBackend));
});
