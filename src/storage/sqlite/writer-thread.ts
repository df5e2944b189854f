// The SQLite writer thread (see writer.ts): its own connection to the file, running each batch the
// main thread sends as one transaction, off the main thread's event loop.
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import type { RecordedResponse } from '../idempotency.js';
import { configureConnection, prepareWrites } from './statements.js';
import { executeBatch } from './write-batch.js';
import type { FromWriter, ToWriter } from './writer.js';

const port = parentPort!;
const db = new Database((workerData as { path: string }).path);
configureConnection(db);
const statements = prepareWrites(db);
let rendered: ((responses: RecordedResponse[]) => void) | undefined;

port.on('message', (message: ToWriter) => {
  switch (message.type) {
    case 'batch':
      void executeBatch(db, statements, message.ops, (pets) => {
        port.postMessage({ type: 'render', pets } satisfies FromWriter);
        return new Promise((resolve, reject) => {
          rendered = (responses) => (responses.length === pets.length ? resolve(responses) : reject(new Error('rendering failed')));
        });
      }).then(({ results, seconds }) => port.postMessage({ type: 'done', results, seconds } satisfies FromWriter));
      break;
    case 'rendered':
      rendered?.(message.responses);
      rendered = undefined;
      break;
    case 'close':
      db.close();
      port.close();
      break;
  }
});
