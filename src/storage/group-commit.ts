/** What became of one item of a batch. */
export type Settled<T> = { ok: true; value: T } | { ok: false; error: Error };

/**
 * Group commit: items submitted while a batch is being committed wait, and go together in the next
 * batch; each item's promise settles once its own batch has. At low load a batch is one item, sent
 * at once; under load batches grow by themselves, and so does what one commit (one fsync) carries.
 * `commit` settles every item of the batch it is given, in order; if it throws, all of them fail
 * with what it threw.
 */
export class GroupCommit<Item, Value> {
  private queue: Array<{ item: Item; settle: (settled: Settled<Value>) => void }> = [];
  private running: Promise<void> | undefined;

  constructor(private readonly commit: (items: Item[]) => Promise<Array<Settled<Value>>>) {}

  submit(item: Item): Promise<Value> {
    return new Promise<Value>((resolve, reject) => {
      this.queue.push({ item, settle: (settled) => (settled.ok ? resolve(settled.value) : reject(settled.error)) });
      this.running ??= this.run();
    });
  }

  /** Resolves once everything submitted so far has settled. */
  async drain(): Promise<void> {
    await this.running;
  }

  private async run(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue;
      this.queue = [];
      let settled: Array<Settled<Value>>;
      try {
        settled = await this.commit(batch.map(({ item }) => item));
      } catch (thrown) {
        const error = thrown instanceof Error ? thrown : new Error(String(thrown));
        settled = batch.map(() => ({ ok: false, error }));
      }
      batch.forEach(({ settle }, index) =>
        settle(settled[index] ?? { ok: false, error: new Error('the batch settled no result for this item') }),
      );
    }
    this.running = undefined;
  }
}
