import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SLOW_KINDS, slowKindOf, slowWorkIn, testFiles, usesPostgres } from './support/tiers.js';

const files = testFiles();
/** This file quotes the work it looks for: the look at other files leaves it out. */
const THIS_FILE = 'test/tiers.test.ts';
const source = (file: string) => readFileSync(file, 'utf8');

/**
 * `npm test` runs the files whose names give no slow kind; `npm run test:all` runs every file
 * (test/support/tiers.ts). The kind is in the name so that vitest.config.ts can tell the tiers
 * apart without reading the files, and a file that starts doing slow work fails here until it is
 * renamed, rather than slowing `npm test` unnoticed.
 */
describe('the test tiers', () => {
  it('finds the test files of the server and of every workspace package', () => {
    expect(files).toContain(THIS_FILE);
    expect(files.some((file) => file.startsWith('packages/client/test/'))).toBe(true);
  });

  it('leaves to the full run every file that starts a process, drives a browser, reads dist/ or copies the project', () => {
    const misplaced = files
      .filter((file) => file !== THIS_FILE && slowKindOf(file) === undefined)
      .map((file) => [file, slowWorkIn(source(file))]);
    expect(
      misplaced.filter(([, kinds]) => kinds!.length),
      `name each x.<kind>.test.ts, a kind of ${Object.keys(SLOW_KINDS).join(', ')}, or move that work to a file so named`,
    ).toEqual([]);
  });

  it('keeps in the full run only files that do such work', () => {
    expect(files.filter((file) => slowKindOf(file) !== undefined && !slowWorkIn(source(file)).length)).toEqual([]);
  });

  it.each([
    ["import { spawn } from 'node:child_process';", 'process'],
    ['const server = await startServer(env);', 'process'],
    ["const key = runKeys(['create'], env);", 'process'],
    ['const api = clientApiPerTest(backend);', 'process'],
    ['browser = await launchChromium();', 'browser'],
    ["readFileSync(join(root, 'dist'))", 'build'],
    ["readFileSync('dist/index.js')", 'build'],
    ['copy = copyProject();', 'copy'],
  ])('tells slow work from its source: %s', (line, kind) => {
    expect(slowWorkIn(line)).toEqual([kind]);
  });

  it.each(["['node_modules', 'dist', 'results']", "'node_modules/tsx/dist/cli.mjs'", 'tempDatabaseUrl()'])('finds none in %s', (line) => {
    expect(slowWorkIn(line)).toEqual([]);
  });

  it('gives PostgreSQL to the files that name it, and to the API suites when TEST_BACKENDS names it', () => {
    // Spelt in two parts, so that vitest.config.ts does not read this file as one that uses PostgreSQL.
    expect(usesPostgres(`describe.each(${'all'}Backends)`, '')).toBe(true);
    expect(usesPostgres('describe.each(backends)', '')).toBe(false);
    expect(usesPostgres('describe.each(backends)', 'sqlite,postgres')).toBe(true);
  });
});
