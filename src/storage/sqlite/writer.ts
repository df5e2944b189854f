import { Worker } from 'node:worker_threads';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { PACKAGE_ROOT } from '../../package-root.js';
import { GroupCommit } from '../group-commit.js';
import type { RecordedResponse } from '../idempotency.js';
import type { CommitObserver } from '../storage-metrics.js';
import { StorageUnavailableError } from '../storage.js';
import { prepareWrites } from './statements.js';
import { writerThreadFromSource } from './writer-source.js';
import {
  executeBatch,
  failure,
  type BatchOutcome,
  type ToRender,
  type WriteOp,
  type WriteResult,
  type WriteValues,
} from './write-batch.js';

/** Messages between the main thread and the writer thread. */
export type ToWriter = { type: 'batch'; ops: WriteOp[] } | { type: 'rendered'; responses: RecordedResponse[] } | { type: 'close' };
export type FromWriter =
  { type: 'render'; pets: ToRender[] } | { type: 'done'; results: WriteResult[]; seconds: number } | { type: 'closed' };

/** Runs one batch somewhere and resolves with each write's result. */
type Executor = {
  run(ops: WriteOp[], render: (pets: ToRender[]) => RecordedResponse[]): Promise<BatchOutcome>;
  close(): Promise<void>;
};

interface Pending {
  op: WriteOp;
  /** Renders a keyed create's response from what it created (a pet, or a row). */
  respond?: (created: never) => RecordedResponse;
}

function errorOf(result: Extract<WriteResult, { ok: false }>): Error {
  const { message, code, unavailable } = result.error;
  const error = Object.assign(new Error(message), code ? { code } : {});
  // Retryable (another process held the write lock for longer than busy_timeout): 503.
  return unavailable ? new StorageUnavailableError({ cause: error }) : error;
}

/**
 * A recorded response as this thread knows it: the bytes it rendered itself for a create, and a Buffer
 * for a replay (a Buffer arrives from the writer thread as a plain Uint8Array).
 */
function withOwnBytes(result: WriteResult, rendered: RecordedResponse | undefined): WriteResult {
  if (!result.ok || typeof result.value !== 'object' || result.value === null) return result;
  const outcome = result.value as { kind?: string; response?: RecordedResponse };
  if (outcome.kind === 'created' && rendered) return { ok: true, value: { kind: 'created', response: rendered } };
  if (outcome.kind === 'replayed' && outcome.response && !Buffer.isBuffer(outcome.response.body)) {
    const { body } = outcome.response;
    return {
      ok: true,
      value: { kind: 'replayed', response: { ...outcome.response, body: Buffer.from(body.buffer, body.byteOffset, body.byteLength) } },
    };
  }
  return result;
}

/**
 * Every write of the SQLite store, group-committed (see GroupCommit): one transaction and one fsync
 * for each batch of writes that arrived together.
 */
export class SqliteWriter {
  private readonly batches: GroupCommit<Pending, unknown>;
  private closed = false;

  private constructor(
    private readonly executor: Executor,
    onCommit: CommitObserver | undefined,
  ) {
    this.batches = new GroupCommit(async (batch) => {
      const rendered = new Map<number, RecordedResponse>();
      let outcome: BatchOutcome;
      try {
        outcome = await executor.run(
          batch.map((pending) => pending.op),
          (pets) =>
            pets.map(({ index, created }) => {
              const response = (batch[index]!.respond as (created: ToRender['created']) => RecordedResponse)(created);
              rendered.set(index, response);
              return response;
            }),
        );
      } catch (error) {
        // The writer itself failed (its thread died): whether the batch committed is unknown, so
        // nothing of it is acknowledged; 503 tells clients to retry (with their Idempotency-Key).
        throw new StorageUnavailableError({ cause: error });
      }
      onCommit?.(batch.length, outcome.seconds);
      return outcome.results.map((result, index) => {
        const own = withOwnBytes(result, rendered.get(index));
        return own.ok ? own : { ok: false, error: errorOf(own) };
      });
    });
  }

  /**
   * Writes in a worker thread with its own connection, so that a commit's fsync never stalls the
   * event loop; or, for an in-memory database, which no other connection can share, on this one.
   */
  static start(path: string, db: Database.Database, onCommit?: CommitObserver): SqliteWriter {
    return new SqliteWriter(path === ':memory:' ? inlineExecutor(db) : threadExecutor(path), onCommit);
  }

  write<K extends WriteOp['kind']>(
    op: Extract<WriteOp, { kind: K }>,
    respond?: (created: never) => RecordedResponse,
  ): Promise<WriteValues[K]> {
    if (this.closed) return Promise.reject(new StorageUnavailableError({ cause: new Error('the store is closed') }));
    return this.batches.submit({ op, ...(respond ? { respond } : {}) }) as Promise<WriteValues[K]>;
  }

  /** Finishes what was submitted, then stops the writer. */
  async close(): Promise<void> {
    this.closed = true;
    await this.batches.drain();
    await this.executor.close();
  }
}

function inlineExecutor(db: Database.Database): Executor {
  const statements = prepareWrites(db);
  return {
    run: (ops, render) => executeBatch(db, statements, ops, async (pets) => render(pets)),
    close: async () => {},
  };
}

/**
 * The writer thread's entry: its own entry point of the server bundle, or, when this module runs
 * from src/ (tests, `npm run dev`), a bundle of its source made for this process.
 */
function startThread(path: string): Worker {
  const fromSource = import.meta.url.endsWith('.ts');
  const file = fromSource ? writerThreadFromSource() : join(PACKAGE_ROOT, 'dist', 'storage', 'sqlite', 'writer-thread.js');
  return new Worker(file, { workerData: { path } });
}

function threadExecutor(path: string): Executor {
  let worker: Worker | undefined;
  let current:
    | {
        render: (pets: ToRender[]) => RecordedResponse[];
        resolve: (outcome: BatchOutcome) => void;
        reject: (error: unknown) => void;
        renderError?: unknown;
      }
    | undefined;
  const ensure = (): Worker => {
    if (worker) return worker;
    const started = startThread(path);
    started.on('message', (message: FromWriter) => {
      if (message.type === 'render') {
        let responses: RecordedResponse[] = [];
        try {
          responses = current!.render(message.pets);
        } catch (error) {
          // Rendering is the server's own code: if it fails, the batch is rolled back and fails,
          // each write with that error (no responses make the thread roll back).
          current!.renderError = error;
        }
        started.postMessage({ type: 'rendered', responses } satisfies ToWriter);
      } else if (message.type === 'done') {
        const renderError = current?.renderError;
        const results =
          renderError === undefined ? message.results : message.results.map(() => ({ ok: false as const, error: failure(renderError) }));
        current?.resolve({ results, seconds: message.seconds });
        current = undefined;
      }
    });
    const lost = (error: unknown) => {
      if (worker === started) worker = undefined;
      current?.reject(error);
      current = undefined;
    };
    started.on('error', lost);
    started.on('exit', (code) => lost(new Error(`the SQLite writer thread exited (${code})`)));
    worker = started;
    return started;
  };
  ensure();
  return {
    run: (ops, render) =>
      new Promise<BatchOutcome>((resolve, reject) => {
        current = { render, resolve, reject };
        ensure().postMessage({ type: 'batch', ops } satisfies ToWriter);
      }),
    close: async () => {
      const closing = worker;
      worker = undefined;
      if (!closing) return;
      await new Promise<void>((resolve) => {
        closing.once('exit', () => resolve());
        closing.postMessage({ type: 'close' } satisfies ToWriter);
      });
    },
  };
}
