import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateSqlite } from '../../../src/storage/sqlite/migrate.js';
import type { FromWriter, ToWriter } from '../../../src/storage/sqlite/writer.js';

/** The writer thread from its TypeScript source, as the storage starts it under tests. */
function startWriterThread(path: string): Worker {
  const file = new URL('../../../src/storage/sqlite/writer-thread.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(file)}); })`;
  return new Worker(boot, { eval: true, workerData: { path } });
}

function next(worker: Worker): Promise<FromWriter> {
  return new Promise((resolve) => worker.once('message', resolve));
}

describe('the SQLite writer thread', () => {
  it('commits a batch, asks the main thread to render keyed responses before the commit, and stops on close', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'petstore-writer-thread-')), 'store.db');
    const db = new Database(path);
    await migrateSqlite(db);
    db.prepare("INSERT INTO accounts (name) VALUES ('alice')").run();
    const worker = startWriterThread(path);
    try {
      worker.postMessage({
        type: 'batch',
        ops: [{ kind: 'store', store: 'pets', write: 'createPet', args: ['a', 1, null] }],
      } satisfies ToWriter);
      expect(await next(worker)).toMatchObject({ type: 'done', results: [{ ok: true, value: { id: 1, name: 'a', categoryId: 1 } }] });

      const idempotency = {
        accountId: 1,
        key: 'k',
        fingerprint: 'f',
        now: '2026-11-23T00:00:00.000Z',
        expiresAt: '2026-11-24T00:00:00.000Z',
      };
      worker.postMessage({
        type: 'batch',
        ops: [{ kind: 'insertRowIdempotently', table: 'pets', values: ['b', 2, null], idempotency }],
      } satisfies ToWriter);
      expect(await next(worker)).toEqual({ type: 'render', pets: [{ index: 0, created: [2, 'b', 2, null] }] });
      // Not committed yet: another connection does not see the pet.
      expect(db.prepare('SELECT count(*) AS n FROM pets').get()).toEqual({ n: 1 });
      const response = { status: 201, headers: { Location: '/v1/pets/2' }, body: new Uint8Array([123, 125]) };
      worker.postMessage({ type: 'rendered', responses: [response] } satisfies ToWriter);
      expect(await next(worker)).toMatchObject({ type: 'done', results: [{ ok: true, value: { kind: 'created', response } }] });
      expect(db.prepare('SELECT count(*) AS n FROM pets').get()).toEqual({ n: 2 });
    } finally {
      const exited = new Promise((resolve) => worker.once('exit', resolve));
      worker.postMessage({ type: 'close' } satisfies ToWriter);
      expect(await exited).toBe(0);
      db.close();
    }
  });
});
