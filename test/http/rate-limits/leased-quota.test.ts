import { describe, expect, it, vi } from 'vitest';
import { LeasedQuota, leaseBlock, type QuotaState } from '../../../src/http/rate-limits/leased-quota.js';
import { memoryQuotaCounter } from '../../../src/storage/quota-counters.js';

/** A store as the processes share it, counting its calls. */
function countingStore(quota: number) {
  const store = memoryQuotaCounter({ keyPrefix: 'test', points: quota, durationSeconds: 60 });
  const add = vi.spyOn(store, 'add');
  return { store, add };
}

const allowed = async (taken: QuotaState | Promise<QuotaState>) => (await taken).allowed;

describe('a quota taken from the store in shares', () => {
  it('never serves more than the quota across processes, and serves all of it while they all keep asking', async () => {
    const { store } = countingStore(100);
    const processes = [new LeasedQuota(store, 100, 7), new LeasedQuota(store, 100, 7), new LeasedQuota(store, 100, 7)];
    let served = 0;
    for (let round = 0; round < 60; round += 1) {
      for (const process of processes) if (await allowed(process.take('k'))) served += 1;
    }
    expect(served).toBe(100);
  });

  it('asks the store once per share, and not at all once its last share used the quota up', async () => {
    const { store, add } = countingStore(1000);
    const quota = new LeasedQuota(store, 1000, 10);
    for (let n = 0; n < 1000; n += 1) expect(await allowed(quota.take('k'))).toBe(true);
    expect(add).toHaveBeenCalledTimes(100);
    for (let n = 0; n < 50; n += 1) expect(await allowed(quota.take('k'))).toBe(false);
    expect(add).toHaveBeenCalledTimes(100);
  });

  it('decides without waiting while this process holds a share', async () => {
    const { store } = countingStore(100);
    const quota = new LeasedQuota(store, 100, 5);
    expect(quota.take('k')).toBeInstanceOf(Promise);
    await quota.take('k');
    const state = quota.take('k');
    expect(state).not.toBeInstanceOf(Promise);
    expect(state).toMatchObject({ allowed: true, remaining: 97 });
  });

  it('lets requests that arrive during a renewal wait for it instead of starting their own', async () => {
    const { store, add } = countingStore(1000);
    const quota = new LeasedQuota(store, 1000, 10);
    const states = await Promise.all(Array.from({ length: 50 }, () => Promise.resolve(quota.take('k'))));
    expect(states.every((state) => state.allowed)).toBe(true);
    expect(add).toHaveBeenCalledTimes(5);
  });

  it('gives each request that waited for a renewal an answer of its own', async () => {
    const { store } = countingStore(2);
    const quota = new LeasedQuota(store, 2, 1);
    const states = await Promise.all(Array.from({ length: 5 }, () => Promise.resolve(quota.take('k'))));
    expect(states.map((state) => state.allowed)).toEqual([true, true, false, false, false]);
  });

  it('says what is left and when the window ends; refuses past the quota until then', async () => {
    let now = 1_000_000;
    const { store } = countingStore(3);
    const quota = new LeasedQuota(store, 3, 1, () => now);
    expect(await quota.take('k')).toMatchObject({ allowed: true, remaining: 2 });
    expect(await quota.take('k')).toMatchObject({ allowed: true, remaining: 1 });
    expect(await quota.take('k')).toMatchObject({ allowed: true, remaining: 0 });
    const refused = await quota.take('k');
    expect(refused).toMatchObject({ allowed: false, remaining: 0 });
    expect(refused.msBeforeReset).toBeGreaterThan(59_000);
    now += 30_000;
    expect((await quota.take('k')).msBeforeReset).toBeLessThanOrEqual(30_000);
  });

  it('keeps keys apart', async () => {
    const { store } = countingStore(1);
    const quota = new LeasedQuota(store, 1, 1);
    expect(await allowed(quota.take('a'))).toBe(true);
    expect(await allowed(quota.take('a'))).toBe(false);
    expect(await allowed(quota.take('b'))).toBe(true);
  });

  it.each([
    [1, 1],
    [99, 1],
    [600, 6],
    [10_000_000, 100_000],
  ])('takes shares of a hundredth of a quota of %i, at least one request: %i', (quota, block) => {
    expect(leaseBlock(quota)).toBe(block);
  });
});
