import type { ServerResponse } from 'node:http';
import { holdHeaders } from '../held-headers.js';

/** A quota policy as draft-ietf-httpapi-ratelimit-headers-11 describes it: `quota` requests per `windowSeconds`. */
export interface RateLimitPolicy {
  /** Its name in the headers, a Structured Field String: letters, digits and `-` here. */
  name: string;
  quota: number;
  windowSeconds: number;
}

/** Seconds until a window ends, for `t` and Retry-After (delay-seconds): at least 1 while a window runs. */
export function secondsLeft(msBeforeNext: number): number {
  return Math.max(1, Math.ceil(msBeforeNext / 1000));
}

/**
 * Writes the draft's two fields for one policy:
 * `RateLimit-Policy: "api-key";q=600;w=60` (the policy; the same on every response) and
 * `RateLimit: "api-key";r=599;t=60` (requests left, seconds until the window ends).
 */
export class RateLimitHeaders {
  private readonly policyField: string;
  private readonly itemPrefix: string;

  constructor(readonly policy: RateLimitPolicy) {
    if (!/^[A-Za-z0-9-]+$/.test(policy.name)) throw new Error(`rate limit policy name ${JSON.stringify(policy.name)} is not a plain token`);
    this.policyField = `"${policy.name}";q=${policy.quota};w=${policy.windowSeconds}`;
    this.itemPrefix = `"${policy.name}";r=`;
  }

  /** Sets both fields; returns the seconds left in the window. */
  set(res: ServerResponse, remaining: number, msBeforeNext: number): number {
    const seconds = secondsLeft(msBeforeNext);
    const [policyName, policy, itemName, item] = this.fields(remaining, seconds);
    res.setHeader(policyName, policy);
    res.setHeader(itemName, item);
    return seconds;
  }

  /**
   * Holds both fields for the response's one writeHead (held-headers.ts), as a response every
   * request of a key gets does; returns the seconds left in the window.
   */
  hold(res: ServerResponse, remaining: number, msBeforeNext: number): number {
    const seconds = secondsLeft(msBeforeNext);
    holdHeaders(res, this.fields(remaining, seconds));
    return seconds;
  }

  private fields(remaining: number, seconds: number): [string, string, string, string] {
    return ['RateLimit-Policy', this.policyField, 'RateLimit', `${this.itemPrefix}${Math.max(0, remaining)};t=${seconds}`];
  }
}
