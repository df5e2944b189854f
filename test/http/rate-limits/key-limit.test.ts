import { describe, expect, it } from 'vitest';
import { issueApiKey } from '../../../src/auth/api-keys.js';
import { allBackends } from '../../support/backends.js';
import { createTestApi } from '../../support/test-app.js';

const limits = (requestsPerKeyPerMinute: number) => ({ requestsPerKeyPerMinute, failedAuthPerAddressPerMinute: 0 });

describe.each(allBackends)('requests per API key [$name]', (backend) => {
  it('counts every authenticated request, whatever its answer, and says what is left on each', async () => {
    const t = await createTestApi({ backend, rateLimits: limits(8) });
    const started = Date.now();
    const responses = [
      await t.api.get('/v1/pets').set(t.auth).expect(200),
      await t.api.post('/v1/pets').set(t.auth).send({ name: 'Rex', categoryId: 3 }).expect(201),
      await t.api.get('/v1/pets/1').set(t.auth).expect(200),
      await t.api.get('/v1/pets?limit=0').set(t.auth).expect(400),
      await t.api.get('/v1/pets/99').set(t.auth).expect(404),
      await t.api.patch('/v1/pets/1').set(t.auth).send({ status: 'sold' }).expect(200),
      await t.api.patch('/v1/pets/1').set(t.auth).set('If-Match', '"1-1"').send({ status: 'sold' }).expect(412),
      await t.api.delete('/v1/pets/1').set(t.auth).expect(204),
    ];
    // The window opened at the first request: what is left of it can have run down by as many
    // seconds as the requests took, on a slow machine too.
    const elapsed = Math.ceil((Date.now() - started) / 1000);
    responses.forEach((res, index) => {
      expect(res.headers['ratelimit-policy']).toBe('"api-key";q=8;w=60');
      const [, remaining, reset] = /^"api-key";r=(\d+);t=(\d+)$/.exec(String(res.headers['ratelimit'])) ?? [];
      expect(Number(remaining)).toBe(7 - index);
      expect(Number(reset)).toBeGreaterThanOrEqual(59 - elapsed);
      expect(Number(reset)).toBeLessThanOrEqual(60);
    });
    // Unauthenticated requests neither count nor carry the key's policy.
    const anonymous = await t.api.get('/v1/pets').expect(401);
    expect(anonymous.headers['ratelimit']).toBeUndefined();
  });

  it('answers past the limit 429 rate_limited with Retry-After to the end of the window, and the headers', async () => {
    const t = await createTestApi({ backend, rateLimits: limits(2) });
    await t.api.get('/v1/pets').set(t.auth).expect(200);
    await t.api.get('/v1/pets').set(t.auth).expect(200);
    for (const request of [
      t.api.get('/v1/pets').set(t.auth),
      t.api.post('/v1/pets').set(t.auth).send({ name: 'Rex', categoryId: 3 }),
      t.api.get('/v1/pets/1').set(t.auth),
      t.api.get('/v1/store/orders').set(t.auth),
    ]) {
      const res = await request.expect(429);
      const retryAfter = Number(res.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(58);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(res.headers['ratelimit']).toBe(`"api-key";r=0;t=${retryAfter}`);
      expect(res.headers['ratelimit-policy']).toBe('"api-key";q=2;w=60');
      expect(res.body).toEqual({
        code: 'rate_limited',
        status: 429,
        message: `This API key has used its 2 requests per 60 seconds; retry in ${retryAfter} seconds.`,
      });
    }
    const head = await t.api.head('/v1/pets').set(t.auth).expect(429);
    expect(head.headers['ratelimit']).toMatch(/^"api-key";r=0;t=\d+$/);
    // Nothing was created past the limit.
    expect(await t.storage.listPets({ limit: 10 })).toEqual([]);
  });

  it('still answers 401 first: a request without a valid key is never rate limited', async () => {
    const t = await createTestApi({ backend, rateLimits: limits(1) });
    await t.api.get('/v1/pets').set(t.auth).expect(200);
    await t.api.get('/v1/pets').set(t.auth).expect(429);
    await t.api.get('/v1/pets').expect(401);
    await t.api
      .get('/v1/pets')
      .set('Authorization', `Bearer psk_${'A'.repeat(43)}`)
      .expect(401);
  });

  it('keeps a quota per key', async () => {
    const t = await createTestApi({ backend, rateLimits: limits(1) });
    const other = (await issueApiKey(t.storage, 'other')).key;
    await t.api.get('/v1/pets').set(t.auth).expect(200);
    await t.api.get('/v1/pets').set(t.auth).expect(429);
    const res = await t.api.get('/v1/pets').set('Authorization', `Bearer ${other}`).expect(200);
    expect(res.headers['ratelimit']).toMatch(/^"api-key";r=0;t=\d+$/);
  });

  it('limits nothing outside the API', async () => {
    const t = await createTestApi({ backend, rateLimits: limits(1) });
    for (let n = 0; n < 3; n += 1) {
      const res = await t.api.get('/healthz').set(t.auth).expect(200);
      expect(res.headers['ratelimit']).toBeUndefined();
    }
  });

  it('sends no rate limit headers when the limit is off', async () => {
    const t = await createTestApi({ backend, rateLimits: limits(0) });
    const res = await t.api.get('/v1/pets').set(t.auth).expect(200);
    expect(res.headers['ratelimit']).toBeUndefined();
    expect(res.headers['ratelimit-policy']).toBeUndefined();
  });
});
