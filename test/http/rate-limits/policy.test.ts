import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { expressApp } from '../../../src/http/express-app.js';
import { holdHeadersUntilWritten } from '../../../src/http/held-headers.js';
import { RateLimitHeaders, secondsLeft } from '../../../src/http/rate-limits/policy.js';
import { contextOf } from '../../../src/http/request-context.js';

const response = () => new ServerResponse(new IncomingMessage(new Socket()));

describe('RateLimit and RateLimit-Policy (draft-ietf-httpapi-ratelimit-headers-11)', () => {
  it('writes the policy as a String item with q and w, and the service limit with r and t', () => {
    const res = response();
    const seconds = new RateLimitHeaders({ name: 'api-key', quota: 600, windowSeconds: 60 }).set(res, 599, 59_001);
    expect(seconds).toBe(60);
    expect(res.getHeader('RateLimit-Policy')).toBe('"api-key";q=600;w=60');
    expect(res.getHeader('RateLimit')).toBe('"api-key";r=599;t=60');
  });

  it("holds the same fields for the response's one writeHead, where its app holds headers", () => {
    const app = expressApp();
    holdHeadersUntilWritten(app);
    const res = Object.setPrototypeOf(response(), app.response) as ServerResponse;
    const seconds = new RateLimitHeaders({ name: 'api-key', quota: 600, windowSeconds: 60 }).hold(res, 599, 59_001);
    expect(seconds).toBe(60);
    expect(contextOf(res).heldHeaders).toEqual(['RateLimit-Policy', '"api-key";q=600;w=60', 'RateLimit', '"api-key";r=599;t=60']);
    expect(res.getHeader('RateLimit')).toBe('"api-key";r=599;t=60');
  });

  it('never shows a negative quota left', () => {
    const res = response();
    new RateLimitHeaders({ name: 'failed-auth', quota: 3, windowSeconds: 60 }).set(res, -4, 1000);
    expect(res.getHeader('RateLimit')).toBe('"failed-auth";r=0;t=1');
  });

  it.each([
    [59_001, 60],
    [1000, 1],
    [1, 1],
    [0, 1],
    [-1, 1],
  ])('rounds %i ms left up to whole seconds, at least 1 (delay-seconds, for t and Retry-After)', (ms, seconds) => {
    expect(secondsLeft(ms)).toBe(seconds);
  });

  it('refuses a policy name that would need escaping', () => {
    expect(() => new RateLimitHeaders({ name: 'a"b', quota: 1, windowSeconds: 1 })).toThrow('is not a plain token');
  });
});
