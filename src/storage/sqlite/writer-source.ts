import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { threadId } from 'node:worker_threads';
import { PACKAGE_ROOT } from '../../package-root.js';

// Under node_modules, so that the bundle's package imports (better-sqlite3) resolve as the source's do.
const CACHE = join(PACKAGE_ROOT, 'node_modules', '.cache', 'petstore');

let bundled: string | undefined;

/** What of esbuild's API this uses: its types are a development dependency's, like esbuild itself. */
interface Esbuild {
  buildSync(options: Record<string, unknown>): { outputFiles: Array<{ contents: Uint8Array }> };
}

/**
 * The writer thread's entry when the server runs from its TypeScript source (tests, `npm run dev`):
 * writer-thread.ts and the modules it imports from src/, bundled with esbuild once per process into
 * a file named by its content. A thread that registered tsx itself would pay for tsx's loader hooks
 * (a thread of their own) at every store's start, which is most of a test's set-up.
 */
export function writerThreadFromSource(): string {
  if (bundled) return bundled;
  // esbuild is a development dependency, needed only here, from source; required at run time so
  // that the server's bundle never takes it in.
  const esbuild = createRequire(import.meta.url)('esbuild') as Esbuild;
  const [output] = esbuild.buildSync({
    entryPoints: [fileURLToPath(new URL('./writer-thread.ts', import.meta.url))],
    bundle: true,
    packages: 'external',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    write: false,
    logLevel: 'silent',
  }).outputFiles;
  const file = join(CACHE, `writer-thread-${createHash('sha256').update(output!.contents).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    // Written whole under another name first: other processes may start a thread from it meanwhile.
    mkdirSync(CACHE, { recursive: true });
    const partial = `${file}.${process.pid}-${threadId}`;
    writeFileSync(partial, output!.contents);
    renameSync(partial, file);
  }
  bundled = file;
  return file;
}
