import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { fastTier, SLOW_GLOBS } from './test/support/tiers.js';

const BUILD = 'test/support/build-once.ts';
const POSTGRES = 'test/support/postgres-global-setup.ts';
const fast = fastTier();

export default defineConfig({
  // The typed client from its source (tsconfig.json's paths): its exports name dist/, which only a build makes.
  resolve: { alias: { 'petstore-client': fileURLToPath(new URL('packages/client/src/index.ts', import.meta.url)) } },
  test: {
    setupFiles: ['test/support/cleanup.ts'],
    // Files wait on sockets, databases and child processes as much as they compute: one worker per
    // core keeps the cores busy without a second file's waits slowing the first's deadlines.
    maxWorkers: availableParallelism(),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The tiers (test/support/tiers.ts): `npm test` runs the fast ones, `npm run test:all` all three.
    // A global set-up runs only when its project has files to run.
    projects: [
      { extends: true, test: { name: 'fast', include: fast.plain } },
      // A PostgreSQL server (TEST_DATABASE_URL, or a throwaway one) for the files that use it.
      { extends: true, test: { name: 'fast-postgres', include: fast.postgres, globalSetup: [POSTGRES] } },
      // dist/ for the built server, CLIs and packages, and PostgreSQL.
      // Their deadlines cover starting processes and browsers on a machine that runs other work too.
      {
        extends: true,
        test: { name: 'slow', include: SLOW_GLOBS, globalSetup: [BUILD, POSTGRES], testTimeout: 120_000, hookTimeout: 180_000 },
      },
    ],
  },
});
