import type { ServerResponse } from 'node:http';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { apiError, type ApiError } from '../../errors/api-error.js';
import { RateLimitHeaders, type RateLimitPolicy } from './policy.js';

/** How long a key that authenticated stays "known" to this process (see FailedAuthLimit). */
const KNOWN_KEY_MS = 60 * 60 * 1000;
/** The most keys remembered; the oldest are forgotten first. */
const KNOWN_KEYS_MAX = 10_000;

/**
 * Failed authentications per client address, counted in this process's memory (no database work:
 * bounding that is the point). The first `quota` failures of a window are answered 401 as usual,
 * each carrying the "failed-auth" policy's headers; the failure past them is answered 429, and from
 * then to the window's end the address is blocked: its requests get 429 before any key is looked
 * up, except those whose key authenticated in this process within the last hour. Those are looked
 * up and served as usual, so a client with a valid key behind the same address (a NAT, a proxy)
 * keeps working while someone there floods the service with made-up keys.
 */
export class FailedAuthLimit {
  readonly headers: RateLimitHeaders;
  private readonly failures: RateLimiterMemory;
  /** Addresses over the limit, until when (ms since the epoch); empty in normal times, so free to ask. */
  private readonly blockedUntil = new Map<string, number>();
  /** SHA-256 hashes of keys that authenticated, with when they last did (renewed at most every half hour). */
  private readonly knownKeys = new Map<string, number>();

  constructor(
    readonly policy: RateLimitPolicy,
    private readonly now: () => number = Date.now,
  ) {
    this.headers = new RateLimitHeaders(policy);
    this.failures = new RateLimiterMemory({ keyPrefix: policy.name, points: policy.quota, duration: policy.windowSeconds });
  }

  /**
   * The 429 for a request from a blocked address (headers set on `res`), or undefined when the
   * address is not blocked or the request's key is one this process knows.
   */
  refuse<R>(request: R, clientOf: (request: R) => string, keyHash: string | undefined, res: ServerResponse): ApiError | undefined {
    if (this.blockedUntil.size === 0) return undefined;
    const client = clientOf(request);
    const until = this.blockedUntil.get(client);
    if (until === undefined) return undefined;
    const msLeft = until - this.now();
    if (msLeft <= 0) {
      this.blockedUntil.delete(client);
      return undefined;
    }
    if (keyHash !== undefined && this.knows(keyHash)) return undefined;
    return this.tooMany(res, msLeft);
  }

  /**
   * Counts a failed authentication from `client` and sets the policy's headers on `res`. Returns the
   * 429 to answer when this failure is past the quota (the address is blocked from now on), else
   * undefined (answer the 401).
   */
  async recordFailure(client: string, res: ServerResponse): Promise<ApiError | undefined> {
    try {
      const state = await this.failures.consume(client);
      this.headers.set(res, state.remainingPoints, state.msBeforeNext);
      return undefined;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      this.block(client, rejection.msBeforeNext);
      return this.tooMany(res, rejection.msBeforeNext);
    }
  }

  /** A key authenticated: requests with it pass a block for the next hour. */
  remember(keyHash: string): void {
    const now = this.now();
    const seen = this.knownKeys.get(keyHash);
    if (seen !== undefined && now - seen < KNOWN_KEY_MS / 2) return;
    // Re-inserted, so that the Map's order stays the order of last renewal: the oldest go first.
    this.knownKeys.delete(keyHash);
    this.knownKeys.set(keyHash, now);
    if (this.knownKeys.size > KNOWN_KEYS_MAX) this.knownKeys.delete(this.knownKeys.keys().next().value!);
  }

  private knows(keyHash: string): boolean {
    const seen = this.knownKeys.get(keyHash);
    return seen !== undefined && this.now() - seen < KNOWN_KEY_MS;
  }

  private block(client: string, ms: number): void {
    const now = this.now();
    if (this.blockedUntil.size >= 1000) {
      for (const [blocked, until] of this.blockedUntil) if (until <= now) this.blockedUntil.delete(blocked);
    }
    this.blockedUntil.set(client, now + ms);
  }

  private tooMany(res: ServerResponse, msLeft: number): ApiError {
    const retryAfter = this.headers.set(res, 0, msLeft);
    return apiError('too_many_failed_authentications', { retryAfter }, { 'Retry-After': String(retryAfter) });
  }
}
