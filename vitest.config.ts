import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // dist/ for the process tests (built server and CLI), and a PostgreSQL server for the
    // postgres backend (TEST_DATABASE_URL, or a throwaway one).
    globalSetup: ['test/support/build-once.ts', 'test/support/postgres-global-setup.ts'],
    setupFiles: ['test/support/cleanup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
