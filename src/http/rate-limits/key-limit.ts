import type { RequestHandler } from 'express';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { apiError } from '../../errors/api-error.js';
import type { AuthenticatedLocals } from '../middleware/authenticate.js';
import { RateLimitHeaders, type RateLimitPolicy } from './policy.js';

/**
 * Counts every authenticated request against its API key's quota (mount right after
 * authentication) and sets the policy's RateLimit-Policy and RateLimit on its response, whatever
 * the response turns out to be. Past the quota: 429 rate_limited with Retry-After, the seconds
 * left in the window (never earlier than the window's end, as the draft asks).
 */
export function limitRequestsPerKey(limiter: RateLimiterAbstract, policy: RateLimitPolicy): RequestHandler {
  const headers = new RateLimitHeaders(policy);
  return async (_req, res, next) => {
    const { keyId } = (res.locals as AuthenticatedLocals).principal;
    let state: RateLimiterRes;
    try {
      state = await limiter.consume(keyId);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = headers.set(res, 0, rejection.msBeforeNext);
      throw apiError(
        'rate_limited',
        { limit: policy.quota, windowSeconds: policy.windowSeconds, retryAfter },
        { 'Retry-After': String(retryAfter) },
      );
    }
    headers.set(res, state.remainingPoints, state.msBeforeNext);
    next();
  };
}
