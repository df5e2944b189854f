import { describe, expect, it } from 'vitest';
import { DEFAULT_RETRIES, retryDelay, retryingFetch, retryPolicy, type Fetch } from '../src/retry.js';

const FAST = { attempts: 4, baseDelayMs: 1, maxDelayMs: 2 };

/** A fetch that answers from `script` in turn (a status, or an error to throw) and records what it was sent. */
function scripted(...script: Array<number | Error>) {
  const sent: Array<{ key: string | null; body: string }> = [];
  const fetch: Fetch = async (request) => {
    sent.push({ key: request.headers.get('Idempotency-Key'), body: await request.text() });
    const next = script.shift();
    if (next === undefined) throw new Error('called more often than scripted');
    if (next instanceof Error) throw next;
    return new Response(JSON.stringify({ status: next }), { status: next, headers: next === 503 ? { 'Retry-After': '0' } : {} });
  };
  return { fetch, sent };
}

const keyed = (init: RequestInit = {}) =>
  new Request('http://127.0.0.1/v1/pets', { method: 'POST', body: '{"name":"Rex"}', headers: { 'Idempotency-Key': '"k"' }, ...init });

describe('retryingFetch', () => {
  it('sends a keyed request again, unchanged, after a network failure, a 409 or a 503, until it gets another answer', async () => {
    const { fetch, sent } = scripted(new TypeError('fetch failed'), 409, 503, 201);
    const response = await retryingFetch(fetch, retryPolicy(FAST))(keyed());
    expect(response.status).toBe(201);
    expect(sent).toEqual(Array(4).fill({ key: '"k"', body: '{"name":"Rex"}' }));
  });

  it('gives up after the last attempt: the last answer, or the last network error', async () => {
    const answered = scripted(503, 503, 503, 503);
    expect((await retryingFetch(answered.fetch, retryPolicy(FAST))(keyed())).status).toBe(503);
    expect(answered.sent).toHaveLength(4);
    const failed = scripted(...Array.from({ length: 4 }, (_, i) => new TypeError(`fetch failed ${i}`)));
    await expect(retryingFetch(failed.fetch, retryPolicy(FAST))(keyed())).rejects.toThrow('fetch failed 3');
  });

  it.each([201, 400, 422, 500])('returns a %i at once', async (status) => {
    const { fetch, sent } = scripted(status);
    expect((await retryingFetch(fetch, retryPolicy(FAST))(keyed())).status).toBe(status);
    expect(sent).toHaveLength(1);
  });

  it('sends a request without a key once: repeating it could act twice', async () => {
    const unkeyed = () => new Request('http://127.0.0.1/v1/pets', { method: 'POST', body: '{}' });
    const answered = scripted(503);
    expect((await retryingFetch(answered.fetch, retryPolicy(FAST))(unkeyed())).status).toBe(503);
    expect(answered.sent).toHaveLength(1);
    const failed = scripted(new TypeError('down'));
    await expect(retryingFetch(failed.fetch, retryPolicy(FAST))(unkeyed())).rejects.toThrow('down');
    expect(failed.sent).toHaveLength(1);
  });

  it('sends a conditional PATCH or DELETE again, If-Match and body unchanged: a repeat of an applied one gets 412 or 404', async () => {
    for (const method of ['PATCH', 'DELETE']) {
      const { fetch, sent } = scripted(new TypeError('fetch failed'), 503, 200);
      const request = new Request('http://127.0.0.1/v1/pets/1', {
        method,
        headers: { 'If-Match': '"1-3"' },
        ...(method === 'PATCH' ? { body: '{"status":"sold"}' } : {}),
      });
      expect((await retryingFetch(fetch, retryPolicy(FAST))(request)).status).toBe(200);
      expect(sent.map(({ body }) => body)).toEqual(Array(3).fill(method === 'PATCH' ? '{"status":"sold"}' : ''));
    }
  });

  it.each([
    ['a PATCH without If-Match', 'PATCH', {}],
    ['a DELETE without If-Match', 'DELETE', {}],
    ['a PATCH with If-Match: *', 'PATCH', { 'If-Match': '*' }],
    ['a DELETE with If-Match: *', 'DELETE', { 'If-Match': ' * ' }],
  ])('sends %s once: a repeat could undo a change made in between', async (_label, method, headers) => {
    for (const outcome of [503, new TypeError('down')]) {
      const { fetch, sent } = scripted(outcome);
      const request = new Request('http://127.0.0.1/v1/pets/1', { method, headers, ...(method === 'PATCH' ? { body: '{}' } : {}) });
      const answer = retryingFetch(fetch, retryPolicy(FAST))(request);
      if (outcome instanceof Error) await expect(answer).rejects.toThrow('down');
      else expect((await answer).status).toBe(503);
      expect(sent).toHaveLength(1);
    }
  });

  it('sends once when retries are off', async () => {
    const { fetch, sent } = scripted(503);
    expect((await retryingFetch(fetch, retryPolicy(false))(keyed())).status).toBe(503);
    expect(sent).toHaveLength(1);
  });

  it('stops at an abort, with its reason, even while waiting', async () => {
    const controller = new AbortController();
    const fetch: Fetch = () => {
      setTimeout(() => controller.abort(new Error('caller gave up')), 0);
      return Promise.resolve(new Response(null, { status: 503 }));
    };
    const policy = retryPolicy({ attempts: 3, baseDelayMs: 60_000, maxDelayMs: 60_000 });
    await expect(retryingFetch(fetch, policy)(keyed({ signal: controller.signal }))).rejects.toThrow('caller gave up');
  });
});

describe('retryDelay', () => {
  const policy = retryPolicy({ attempts: 10, baseDelayMs: 100, maxDelayMs: 1_000 });

  it('waits a random time up to base × 2^retry, capped (full jitter)', () => {
    expect([0, 1, 2, 3, 4, 8].map((retry) => retryDelay(retry, policy, undefined, () => 1))).toEqual([100, 200, 400, 800, 1_000, 1_000]);
    expect(retryDelay(3, policy, undefined, () => 0.25)).toBe(200);
    expect(retryDelay(3, policy, undefined, () => 0)).toBe(0);
  });

  it("waits at least the response's Retry-After seconds, within the cap", () => {
    const after = (seconds: string) => new Response(null, { status: 503, headers: { 'Retry-After': seconds } });
    expect(retryDelay(0, policy, after('0.5'), () => 0)).toBe(500);
    expect(retryDelay(0, policy, after('5'), () => 0)).toBe(1_000);
    expect(retryDelay(0, policy, after('Fri, 01 Jan 2100 00:00:00 GMT'), () => 0.5)).toBe(50);
  });
});

describe('retryPolicy', () => {
  it('fills in the defaults and switches off with false', () => {
    expect(retryPolicy(undefined)).toEqual(DEFAULT_RETRIES);
    expect(retryPolicy({ attempts: 2 })).toEqual({ ...DEFAULT_RETRIES, attempts: 2 });
    expect(retryPolicy(false).attempts).toBe(1);
  });

  it.each([{ attempts: 0 }, { attempts: 1.5 }, { baseDelayMs: -1 }, { maxDelayMs: Number.NaN }])('refuses %j', (options) => {
    expect(() => retryPolicy(options)).toThrow(TypeError);
  });
});
