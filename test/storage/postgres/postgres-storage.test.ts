import { describe, expect, it } from 'vitest';
import { StorageUnavailableError } from '../../../src/storage/storage.js';
import { PostgresStorage } from '../../../src/storage/postgres/postgres-storage.js';
import { freePort } from '../../support/postgres-server.js';

describe('PostgreSQL storage', () => {
  it('reports an unreachable database as StorageUnavailableError', async () => {
    const port = await freePort(); // nothing listens there
    await expect(PostgresStorage.open(`postgres://nobody:secret@127.0.0.1:${port}/none`)).rejects.toBeInstanceOf(StorageUnavailableError);
  });
});
