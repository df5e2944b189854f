import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * What puts a test file in the full run (`npm run test:all`) rather than `npm test`: the kind of
 * work it does, named by its file name's last part before `.test.ts` (`x.process.test.ts`).
 * `npm test` is the loop run after each change, so it holds only what runs in this process.
 */
export const SLOW_KINDS = {
  process: 'starts a child process: the built server, a CLI, a tool, npm, another Node',
  browser: 'drives a browser',
  build: "reads the build's output (dist/), which the full run's global set-up makes",
  copy: 'works on a copy of the project',
  journey: "a user's journey: a copy of the project and the commands run on it",
} as const;

export type SlowKind = keyof typeof SLOW_KINDS;

/** Where the test files are: the server's and each workspace package's. */
export const TEST_ROOTS = ['test', ...readdirSync('packages').map((name) => join('packages', name, 'test'))];

export function testFiles(dir?: string): string[] {
  if (dir === undefined) return TEST_ROOTS.flatMap((root) => testFiles(root));
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** The kind its name gives a test file, or undefined for one of `npm test`. */
export function slowKindOf(file: string): SlowKind | undefined {
  const kind = /\.(\w+)\.test\.ts$/.exec(file)?.[1];
  return kind !== undefined && kind in SLOW_KINDS ? (kind as SlowKind) : undefined;
}

/**
 * What in a test file's source shows each kind of work (test/tiers.test.ts holds names to them):
 * the modules that do it, and the helpers that do it for a test, by name (a helper that starts
 * processes joins this list).
 */
const MARKERS: Record<Exclude<SlowKind, 'journey'>, RegExp> = {
  process:
    /from 'node:child_process'|\b(startServer|startServerWithMetrics|runKeys|startPrism|startClientApi|clientApiPerTest|packClient|planDocument|runCli|runInCopy|testWithoutHandlers)\(/,
  browser: /\blaunchChromium\(|from 'playwright-core'/,
  build: /['"`]dist(\/|['"`]\))/,
  copy: /\bcopyProject\(/,
};

/** The kinds of slow work a test file's source shows. */
export function slowWorkIn(source: string): SlowKind[] {
  return (Object.keys(MARKERS) as Array<keyof typeof MARKERS>).filter((kind) => MARKERS[kind].test(source));
}

/**
 * Whether a test file needs a PostgreSQL server: it names the PostgreSQL backend or both, or runs
 * the API suites (`backends`) while TEST_BACKENDS names postgres.
 */
export function usesPostgres(source: string, testBackends = process.env['TEST_BACKENDS'] ?? ''): boolean {
  if (/\b(allBackends|postgresBackend|openPostgres|postgresAdminUrl)\b/.test(source)) return true;
  return testBackends.split(',').includes('postgres') && /\bbackends\b/.test(source);
}

/** `npm test`'s files, those that need PostgreSQL apart; the rest are the full run's. */
export function fastTier(): { plain: string[]; postgres: string[] } {
  const fast = testFiles().filter((file) => slowKindOf(file) === undefined);
  const postgres = fast.filter((file) => usesPostgres(readFileSync(file, 'utf8')));
  return { plain: fast.filter((file) => !postgres.includes(file)), postgres };
}

export const SLOW_GLOBS = TEST_ROOTS.map((root) => `${root}/**/*.{${Object.keys(SLOW_KINDS).join(',')}}.test.ts`);
