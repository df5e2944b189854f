import type { RequestHandler } from 'express';
import { memoryQuotaCounter } from '../../storage/quota-counters.js';
import type { QuotaPolicy, QuotaStore } from '../../storage/quotas.js';
import { FailedAuthLimit } from './failed-auth-limit.js';
import { limitRequestsPerKey } from './key-limit.js';
import { LeasedQuota, leaseBlock } from './leased-quota.js';
import type { RateLimitPolicy } from './policy.js';

/** The limits of a deployment (config: RATE_LIMIT_PER_MINUTE, FAILED_AUTH_PER_MINUTE); 0 turns one off. */
export interface RateLimitSettings {
  requestsPerKeyPerMinute: number;
  failedAuthPerAddressPerMinute: number;
}

export interface RateLimits {
  /** Middleware for right after authentication, when requests per key are limited. */
  perKey?: RequestHandler;
  /** For authentication, when failed authentications per address are limited. */
  failedAuth?: FailedAuthLimit;
}

const MINUTE = 60;

/**
 * The limiters for these settings. Requests per key are counted where the store can share them
 * among processes (PostgreSQL: QuotaStore.sharedQuotaCounter), else in this process's memory
 * (SQLite, one host), in shares of 1 % of the quota (LeasedQuota). Failed authentications are always
 * counted in memory: keeping them off the database is their purpose.
 */
export function createRateLimits(settings: RateLimitSettings, quotas: QuotaStore): RateLimits {
  const limits: RateLimits = {};
  if (settings.requestsPerKeyPerMinute > 0) {
    const policy: RateLimitPolicy = { name: 'api-key', quota: settings.requestsPerKeyPerMinute, windowSeconds: MINUTE };
    const counting: QuotaPolicy = { keyPrefix: policy.name, points: policy.quota, durationSeconds: policy.windowSeconds };
    const counter = quotas.sharedQuotaCounter(counting) ?? memoryQuotaCounter(counting);
    limits.perKey = limitRequestsPerKey(new LeasedQuota(counter, policy.quota, leaseBlock(policy.quota)), policy);
  }
  if (settings.failedAuthPerAddressPerMinute > 0) {
    limits.failedAuth = new FailedAuthLimit({ name: 'failed-auth', quota: settings.failedAuthPerAddressPerMinute, windowSeconds: MINUTE });
  }
  return limits;
}
