import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // The server's tests and every workspace package's, in one run with one global setup.
    include: ['test/**/*.test.ts', 'packages/*/test/**/*.test.ts'],
    // dist/ for the process tests (built server, CLIs and packages), and a PostgreSQL server for the
    // postgres backend (TEST_DATABASE_URL, or a throwaway one).
    globalSetup: ['test/support/build-once.ts', 'test/support/postgres-global-setup.ts'],
    setupFiles: ['test/support/cleanup.ts'],
    // The files spend most of their time waiting on servers, child processes and databases, so more
    // of them run at once than there are cores (vitest's default is one fewer than the cores).
    maxWorkers: Math.max(4, availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
