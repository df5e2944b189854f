import { describe, expect, it } from 'vitest';
import { StorageUnavailableError } from '../../src/storage/storage.js';
import { allBackends } from '../support/backends.js';
import { createTestApi, openTestStorage } from '../support/test-app.js';

describe.each(allBackends)('health endpoints [$name]', (backend) => {
  it('answer without a key, outside /v1', async () => {
    const t = await createTestApi({ backend });
    expect((await t.api.get('/healthz').expect(200)).body).toEqual({ status: 'ok' });
    expect((await t.api.get('/readyz').expect(200)).body).toEqual({ status: 'ready', storage: backend.name });
  });

  it('report not ready, but alive, while the database is unreachable', async () => {
    const storage = await openTestStorage(backend);
    const t = await createTestApi({ backend, storage });
    storage.ping = async () => {
      throw new StorageUnavailableError();
    };
    const res = await t.api.get('/readyz').expect(503);
    expect(res.body).toEqual({
      code: 'service_unavailable',
      status: 503,
      message: 'The service is temporarily unavailable. Try again later.',
    });
    expect(res.headers['retry-after']).toBe('5');
    await t.api.get('/healthz').expect(200);
  });
});
