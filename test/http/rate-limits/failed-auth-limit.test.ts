import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FailedAuthLimit } from '../../../src/http/rate-limits/failed-auth-limit.js';
import { allBackends } from '../../support/backends.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

const response = () => new ServerResponse(new IncomingMessage(new Socket()));
const policy = { name: 'failed-auth', quota: 3, windowSeconds: 60 };
const same = (client: string) => client;

describe('FailedAuthLimit', () => {
  beforeEach(() => {
    // Date only: the limiter's counts and this class's blocks both go by Date.now.
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T00:00:00Z'));
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('lets `quota` failures through with the headers, blocks the address from the next one to the end of the window', async () => {
    const limit = new FailedAuthLimit(policy);
    for (let failure = 1; failure <= 3; failure += 1) {
      const res = response();
      expect(await limit.recordFailure('198.51.100.1', res)).toBeUndefined();
      expect(res.getHeader('RateLimit')).toBe(`"failed-auth";r=${3 - failure};t=60`);
      expect(res.getHeader('RateLimit-Policy')).toBe('"failed-auth";q=3;w=60');
    }
    const res = response();
    const tooMany = await limit.recordFailure('198.51.100.1', res);
    expect(tooMany).toMatchObject({ code: 'too_many_failed_authentications', status: 429, headers: { 'Retry-After': '60' } });
    expect(res.getHeader('RateLimit')).toBe('"failed-auth";r=0;t=60');

    vi.setSystemTime(new Date('2026-01-01T00:00:45Z'));
    const blocked = response();
    expect(limit.refuse('198.51.100.1', same, undefined, blocked)).toMatchObject({ headers: { 'Retry-After': '15' } });
    expect(blocked.getHeader('RateLimit')).toBe('"failed-auth";r=0;t=15');
    // Other addresses are not concerned.
    expect(limit.refuse('198.51.100.2', same, undefined, response())).toBeUndefined();

    vi.setSystemTime(new Date('2026-01-01T00:01:00.001Z'));
    expect(limit.refuse('198.51.100.1', same, undefined, response())).toBeUndefined();
  });

  it('lets a key that authenticated in the last hour through a block, and no other', async () => {
    const limit = new FailedAuthLimit(policy);
    limit.remember('hash-of-good-key');
    for (let failure = 0; failure < 4; failure += 1) await limit.recordFailure('198.51.100.1', response());
    expect(limit.refuse('198.51.100.1', same, 'hash-of-good-key', response())).toBeUndefined();
    expect(limit.refuse('198.51.100.1', same, 'hash-of-other-key', response())).toMatchObject({ status: 429 });
    expect(limit.refuse('198.51.100.1', same, undefined, response())).toMatchObject({ status: 429 });
  });

  it('forgets a key an hour after it last authenticated', async () => {
    const limit = new FailedAuthLimit({ ...policy, windowSeconds: 3 * 3600 });
    limit.remember('hash');
    for (let failure = 0; failure < 4; failure += 1) await limit.recordFailure('198.51.100.1', response());
    vi.setSystemTime(new Date('2026-01-01T00:59:59Z'));
    expect(limit.refuse('198.51.100.1', same, 'hash', response())).toBeUndefined();
    vi.setSystemTime(new Date('2026-01-01T01:00:01Z'));
    expect(limit.refuse('198.51.100.1', same, 'hash', response())).toMatchObject({ status: 429 });
  });

  it('asks for the address only while some address is blocked', () => {
    const limit = new FailedAuthLimit(policy);
    const clientOf = vi.fn(same);
    expect(limit.refuse('198.51.100.1', clientOf, undefined, response())).toBeUndefined();
    expect(clientOf).not.toHaveBeenCalled();
  });
});

describe.each(allBackends)('failed authentications per client address, over HTTP [$name]', (backend) => {
  let t: TestApi;
  let lookups: number;
  beforeEach(async () => {
    t = await createTestApi({ backend, rateLimits: { requestsPerKeyPerMinute: 0, failedAuthPerAddressPerMinute: 3 } });
    lookups = 0;
    const find = t.storage.findActiveApiKey.bind(t.storage);
    t.storage.findActiveApiKey = (hash) => {
      lookups += 1;
      return find(hash);
    };
  });

  const unknownKey = (n: number) => `Bearer psk_${String(n).padStart(43, 'A')}`;

  it('answers the first failures 401 with the policy, then 429 without looking any key up', async () => {
    await t.api.get('/v1/pets').set(t.auth).expect(200); // this key is now known here
    for (let n = 1; n <= 3; n += 1) {
      const res = await t.api.get('/v1/pets').set('Authorization', unknownKey(n)).expect(401);
      expect(res.headers['ratelimit']).toBe(`"failed-auth";r=${3 - n};t=60`);
      expect(res.headers['ratelimit-policy']).toBe('"failed-auth";q=3;w=60');
    }
    const limited = await t.api.get('/v1/pets').set('Authorization', unknownKey(4)).expect(429);
    expect(limited.body).toMatchObject({ code: 'too_many_failed_authentications', status: 429 });
    expect(limited.headers['retry-after']).toBe('60');
    expect(lookups).toBe(5);

    // Blocked now: made-up keys, malformed ones and none at all cost no lookup.
    await t.api.get('/v1/pets').set('Authorization', unknownKey(5)).expect(429);
    await t.api.post('/v1/pets').set('Authorization', 'Bearer nonsense').send({}).expect(429);
    const none = await t.api.get('/v1/pets/1').expect(429);
    expect(none.headers['retry-after']).toMatch(/^(59|60)$/);
    expect(none.headers['ratelimit']).toMatch(/^"failed-auth";r=0;t=(59|60)$/);
    expect(lookups).toBe(5);

    // A key that authenticated here before is still looked up and served.
    await t.api.get('/v1/pets').set(t.auth).expect(200);
    expect(lookups).toBe(6);
  });

  it('refuses, while the address is blocked, a valid key this process has not seen authenticate', async () => {
    const { key } = await (await import('../../../src/auth/api-keys.js')).issueApiKey(t.storage, 'newcomer');
    for (let n = 1; n <= 4; n += 1) await t.api.get('/v1/pets').set('Authorization', unknownKey(n));
    await t.api.get('/v1/pets').set('Authorization', `Bearer ${key}`).expect(429);
  });

  it('does not count requests that authenticate', async () => {
    for (let n = 0; n < 10; n += 1) {
      const res = await t.api.get('/v1/pets').set(t.auth).expect(200);
      expect(res.headers['ratelimit']).toBeUndefined();
    }
    await t.api.get('/v1/pets').expect(401);
  });
});

describe.each(allBackends)('the client address behind proxies [$name]', (backend) => {
  const flood = async (t: TestApi, forwardedFor: string) => {
    const statuses: number[] = [];
    for (let n = 0; n < 3; n += 1) statuses.push((await t.api.get('/v1/pets').set('X-Forwarded-For', forwardedFor)).status);
    return statuses;
  };

  it('is the socket peer by default: X-Forwarded-For is not trusted', async () => {
    const t = await createTestApi({ backend, rateLimits: { requestsPerKeyPerMinute: 0, failedAuthPerAddressPerMinute: 2 } });
    expect([...(await flood(t, '198.51.100.1')), ...(await flood(t, '198.51.100.2'))]).toEqual([401, 401, 429, 429, 429, 429]);
  });

  it('is the address the trusted proxy saw with TRUST_PROXY_HOPS=1', async () => {
    const t = await createTestApi({
      backend,
      rateLimits: { requestsPerKeyPerMinute: 0, failedAuthPerAddressPerMinute: 2 },
      trustProxyHops: 1,
    });
    // The client may write anything first; the proxy appends what it saw, the last entry.
    expect(await flood(t, 'spoofed, 198.51.100.1')).toEqual([401, 401, 429]);
    expect(await flood(t, '198.51.100.1')).toEqual([429, 429, 429]);
    expect(await flood(t, 'spoofed, 198.51.100.2')).toEqual([401, 401, 429]);
  });
});
