import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { QuotaCounter, QuotaPolicy } from './quotas.js';

/**
 * A QuotaCounter that counts with a rate-limiter-flexible limiter: its consume counts the points
 * whether or not the quota had room for them, and rejects with the same answer when it had not.
 */
export function limiterCounter(limiter: RateLimiterAbstract): QuotaCounter {
  return {
    async add(key, points) {
      let answer: RateLimiterRes;
      try {
        answer = await limiter.consume(key, points);
      } catch (rejection) {
        if (!(rejection instanceof RateLimiterRes)) throw rejection;
        answer = rejection;
      }
      return { counted: answer.consumedPoints, msBeforeReset: answer.msBeforeNext };
    },
  };
}

/** The rate-limiter-flexible options of a policy. */
export function limiterOptions({ keyPrefix, points, durationSeconds }: QuotaPolicy) {
  return { keyPrefix, points, duration: durationSeconds };
}

/** Counts in this process's memory: where no store shares the counts. */
export function memoryQuotaCounter(policy: QuotaPolicy): QuotaCounter {
  return limiterCounter(new RateLimiterMemory(limiterOptions(policy)));
}
