import { RateLimiterMemory } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { limiterCounter, memoryQuotaCounter } from '../../src/storage/quota-counters.js';

describe('quota counters', () => {
  it('count every add, past the quota too, and say when the window ends', async () => {
    const counter = memoryQuotaCounter({ keyPrefix: 'test', points: 3, durationSeconds: 60 });
    expect(await counter.add('k', 2)).toMatchObject({ counted: 2 });
    const over = await counter.add('k', 2);
    expect(over.counted).toBe(4);
    expect(over.msBeforeReset).toBeGreaterThan(59_000);
    expect(over.msBeforeReset).toBeLessThanOrEqual(60_000);
    expect((await counter.add('other', 1)).counted).toBe(1);
  });

  it('count apart in each process’s memory', async () => {
    const policy = { keyPrefix: 'test', points: 3, durationSeconds: 60 };
    await memoryQuotaCounter(policy).add('k', 3);
    expect((await memoryQuotaCounter(policy).add('k', 1)).counted).toBe(1);
  });

  it('let a limiter’s failure through, rather than take it for a count', async () => {
    const limiter = new RateLimiterMemory({ points: 1, duration: 60 });
    const failure = new Error('store down');
    limiter.consume = () => Promise.reject(failure);
    await expect(limiterCounter(limiter).add('k', 1)).rejects.toBe(failure);
  });
});
