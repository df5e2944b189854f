#!/usr/bin/env node
// Builds the typed client into dist/client/: index.js, one minified ESM file with openapi-fetch
// inlined and nothing else imported, so it loads from any folder in browsers, Deno, Bun and Node;
// and index.d.ts with the declarations (tsc's, plus the generated spec types they import).
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const out = join(root, 'dist', 'client');
const openapiFetch = JSON.parse(readFileSync(join(root, 'node_modules', 'openapi-fetch', 'package.json'), 'utf8'));

rmSync(out, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['src/client/index.ts'],
  outfile: join(out, 'index.js'),
  bundle: true,
  format: 'esm',
  // No Node resolution or built-ins: anything that needs them fails the build instead of the browser.
  platform: 'neutral',
  mainFields: ['module', 'main'],
  target: 'es2022',
  minify: true,
  sourcemap: true,
  // openapi-fetch's MIT license asks for its notice in every copy.
  banner: {
    js: `/*! petstore-api/client. Includes openapi-fetch ${openapiFetch.version}: MIT License, Copyright (c) 2023 Drew Powers. */`,
  },
  logLevel: 'warning',
});

const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const types = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.client.json')], {
  stdio: ['ignore', process.stderr, process.stderr],
});
if (types.status !== 0) process.exit(types.status ?? 1);
mkdirSync(join(out, 'types', 'generated'), { recursive: true });
copyFileSync(join(root, 'generated', 'openapi.d.ts'), join(out, 'types', 'generated', 'openapi.d.ts'));
writeFileSync(join(out, 'index.d.ts'), "export * from './types/src/client/index.js';\n");

const bundle = readFileSync(join(out, 'index.js'));
process.stderr.write(`dist/client/index.js: ${bundle.length} bytes minified, ${gzipSync(bundle).length} gzipped\n`);
