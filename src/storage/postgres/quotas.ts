import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres } from 'rate-limiter-flexible';
import { limiterCounter, limiterOptions } from '../quota-counters.js';
import type { QuotaCounter, QuotaPolicy } from '../quotas.js';

/**
 * Counts in the rate_limits table (migration 4: unlogged, so a count costs no WAL flush, and a
 * crash merely resets the windows), one atomic upsert per call, so every process sees every count
 * (the HTTP layer takes a share of the quota per call: src/http/rate-limits/leased-quota.ts).
 * Should the table fail, this process counts on its own (in memory) until it answers again.
 */
export function sharedQuotaCounter(pool: pg.Pool, policy: QuotaPolicy): QuotaCounter {
  return limiterCounter(
    new RateLimiterPostgres({
      storeClient: pool,
      storeType: 'pool',
      tableName: 'rate_limits',
      tableCreated: true,
      // Rows of keys unused for an hour are deleted every 5 minutes.
      clearExpiredByTimeout: true,
      ...limiterOptions(policy),
      insuranceLimiter: new RateLimiterMemory(limiterOptions(policy)),
    }),
  );
}
