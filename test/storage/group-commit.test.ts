import { describe, expect, it } from 'vitest';
import { GroupCommit, type Settled } from '../../src/storage/group-commit.js';

/** A commit function whose batches the test sees and finishes when it says. */
function controlledCommit() {
  const batches: Array<{ items: number[]; finish: (settled?: Array<Settled<number>>) => void; fail: (error: Error) => void }> = [];
  const commit = (items: number[]) =>
    new Promise<Array<Settled<number>>>((resolve, reject) => {
      batches.push({
        items,
        finish: (settled) => resolve(settled ?? items.map((item) => ({ ok: true, value: item * 10 }))),
        fail: reject,
      });
    });
  return { batches, commit };
}

describe('GroupCommit', () => {
  it('sends the first item at once, and those that come while it commits together in the next batch', async () => {
    const { batches, commit } = controlledCommit();
    const group = new GroupCommit(commit);
    const first = group.submit(1);
    const rest = [group.submit(2), group.submit(3), group.submit(4)];
    expect(batches.map(({ items }) => items)).toEqual([[1]]);
    batches[0]!.finish();
    expect(await first).toBe(10);
    await Promise.resolve();
    expect(batches.map(({ items }) => items)).toEqual([[1], [2, 3, 4]]);
    batches[1]!.finish();
    expect(await Promise.all(rest)).toEqual([20, 30, 40]);
  });

  it('settles each item as the commit says: one may fail alone', async () => {
    const { batches, commit } = controlledCommit();
    const group = new GroupCommit(commit);
    const outcomes = Promise.allSettled([group.submit(1)]);
    batches[0]!.finish([{ ok: false, error: new Error('this one') }]);
    expect((await outcomes)[0]).toMatchObject({ status: 'rejected', reason: { message: 'this one' } });
  });

  it('fails every item of a batch whose commit throws, and goes on with the next batch', async () => {
    const { batches, commit } = controlledCommit();
    const group = new GroupCommit(commit);
    const first = group.submit(1).catch((error: Error) => error.message);
    const second = group.submit(2).catch((error: Error) => error.message);
    batches[0]!.fail(new Error('disk full'));
    expect(await first).toBe('disk full');
    await Promise.resolve();
    batches[1]!.finish();
    expect(await second).toBe(20);
  });

  it('drains: resolves once everything submitted has settled', async () => {
    const { batches, commit } = controlledCommit();
    const group = new GroupCommit(commit);
    void group.submit(1);
    let drained = false;
    const draining = group.drain().then(() => (drained = true));
    await Promise.resolve();
    expect(drained).toBe(false);
    batches[0]!.finish();
    await draining;
    expect(drained).toBe(true);
  });
});
