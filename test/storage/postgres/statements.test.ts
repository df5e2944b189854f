import { describe, it } from 'vitest';
import * as statements from '../../../src/storage/postgres/statements.js';
import { expectEachOnce } from '../../support/postgres-storage.js';

describe('the PostgreSQL statements', () => {
  it('write each statement once, under a name of its own', () => {
    expectEachOnce([statements]);
  });
});
