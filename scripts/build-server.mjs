#!/usr/bin/env node
// Builds the server and its command-line tools into dist/ with esbuild: dist/main.js,
// dist/cli/keys.js and dist/cli/migrate.js, with the code they share (and the PostgreSQL backend,
// loaded only when DATABASE_URL asks for it) in dist/chunks/. Dependencies are bundled in: Node
// otherwise resolves, reads and compiles some 450 files at every start, a large part of a start's
// time.
// Type checking is tsc's job (npm run typecheck); esbuild only strips the types.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist');

rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const result = await build({
  absWorkingDir: root,
  // The SQLite writer thread is an entry of its own: a worker thread starts from a file.
  entryPoints: ['src/main.ts', 'src/cli/keys.ts', 'src/cli/migrate.ts', 'src/storage/sqlite/writer-thread.ts'],
  outbase: 'src',
  outdir: out,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // better-sqlite3 loads its compiled addon from its own folder; pg-native is an optional addon pg
  // only requires when asked for (never here).
  external: ['better-sqlite3', 'pg-native'],
  // The bundled CommonJS packages call require() for Node's built-ins, which an ES module lacks.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  // For stack traces with source positions: run with NODE_OPTIONS=--enable-source-maps. Not on by
  // default, since Node then reads every map at start-up.
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
});
// What went into which file (for esbuild's analyser), and the stamp scripts/ensure-built.mjs reads.
writeFileSync(join(out, 'server-build.json'), JSON.stringify(result.metafile));
