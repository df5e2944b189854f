import { beforeEach, describe, expect, it } from 'vitest';
import { backends } from '../../support/backends.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

describe.each(backends)('security headers [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend });
  });

  it('sends no X-Powered-By and marks responses nosniff and no-store', async () => {
    for (const res of [
      await t.api.get('/v1/pets').set(t.auth).expect(200),
      await t.api.get('/v1/pets').expect(401),
      await t.api.get('/nowhere').expect(404),
    ]) {
      expect(res.headers['x-powered-by']).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['etag']).toBeUndefined();
    }
  });
});
