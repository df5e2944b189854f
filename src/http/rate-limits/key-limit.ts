import type { RequestHandler, Response } from 'express';
import { apiError } from '../../errors/api-error.js';
import { contextOf } from '../request-context.js';
import type { LeasedQuota, QuotaState } from './leased-quota.js';
import { RateLimitHeaders, type RateLimitPolicy } from './policy.js';

/**
 * Counts every authenticated request against its API key's quota (mount right after
 * authentication) and sets the policy's RateLimit-Policy and RateLimit on its response, whatever
 * the response turns out to be. Past the quota: 429 rate_limited with Retry-After, the seconds
 * left in the window (never earlier than the window's end, as the draft asks). A request whose key
 * still has a share in this process is decided without waiting for anything (see LeasedQuota).
 */
export function limitRequestsPerKey(quota: LeasedQuota, policy: RateLimitPolicy): RequestHandler {
  const headers = new RateLimitHeaders(policy);
  const decide = (res: Response, state: QuotaState): void => {
    const retryAfter = headers.hold(res, state.remaining, state.msBeforeReset);
    if (!state.allowed) {
      throw apiError(
        'rate_limited',
        { limit: policy.quota, windowSeconds: policy.windowSeconds, retryAfter },
        { 'Retry-After': String(retryAfter) },
      );
    }
  };
  return (_req, res, next) => {
    const key = String(contextOf(res).principal!.keyId);
    const taken = quota.take(key);
    if (!(taken instanceof Promise)) {
      decide(res, taken);
      return next();
    }
    return taken.then((state) => {
      decide(res, state);
      next();
    });
  };
}
