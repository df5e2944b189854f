#!/usr/bin/env node
// Builds the typed client into dist/, the package `npm pack` makes from this folder:
// - index.js: one minified ESM file with openapi-fetch inlined and nothing else imported, so it loads
//   from any folder in browsers, Deno, Bun and Node;
// - index.d.ts and types/: tsc's declarations, the generated spec types they import (from the
//   repository's generated/), and the declarations of openapi-fetch and openapi-typescript-helpers
//   they import in turn, vendored in types/vendor/, so that a project that installed only this
//   package type-checks.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const repository = join(root, '..', '..');
const out = join(root, 'dist');
const require = createRequire(import.meta.url);

/** An installed package's folder and manifest, resolved as `from` would import it. */
function installed(name, from = require) {
  const folder = dirname(from.resolve(`${name}/package.json`));
  return { folder, manifest: JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) };
}
const openapiFetch = installed('openapi-fetch');
// openapi-fetch's dependency, not this package's: resolved from openapi-fetch's folder.
const helpers = installed('openapi-typescript-helpers', createRequire(join(openapiFetch.folder, 'package.json')));

rmSync(out, { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: ['src/index.ts'],
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
    js: `/*! petstore-client. Includes openapi-fetch ${openapiFetch.manifest.version}: MIT License, Copyright (c) 2023 Drew Powers. */`,
  },
  logLevel: 'warning',
});

const tsc = require.resolve('typescript/bin/tsc');
const types = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], {
  stdio: ['ignore', process.stderr, process.stderr],
});
if (types.status !== 0) process.exit(types.status ?? 1);
mkdirSync(join(out, 'types', 'generated'), { recursive: true });
copyFileSync(join(repository, 'generated', 'openapi.d.ts'), join(out, 'types', 'generated', 'openapi.d.ts'));
writeFileSync(join(out, 'index.d.ts'), "export * from './types/packages/client/src/index.js';\n");

// The client's declarations import types from openapi-fetch, whose declarations import
// openapi-typescript-helpers. Their declaration files are copied into types/vendor/ as published,
// each beside its MIT license, and the bare specifiers that name them are rewritten to relative
// paths. That keeps the files as their authors wrote them and adds no tool; a declaration bundler
// (API Extractor, rollup-plugin-dts) would rewrite them, and bundleDependencies would list
// openapi-fetch as a dependency and ship its code a second time (the bundle already inlines it).
const VENDORED = { 'openapi-fetch': openapiFetch, 'openapi-typescript-helpers': helpers };
const vendorFile = (name) => join(out, 'types', 'vendor', name, 'index.d.mts');
for (const [name, { folder, manifest }] of Object.entries(VENDORED)) {
  // The declarations of their ESM entry ("import": "./dist/index.mjs"), which this client's imports resolve to.
  mkdirSync(dirname(vendorFile(name)), { recursive: true });
  cpSync(join(folder, manifest.exports['.'].import.replace(/\.mjs$/, '.d.mts')), vendorFile(name));
  cpSync(join(folder, 'LICENSE'), join(dirname(vendorFile(name)), 'LICENSE'));
}

function declarationFiles(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return declarationFiles(path);
    return /\.d\.m?ts$/.test(entry.name) ? [path] : [];
  });
}

const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*)(['"])([^'"]+)\2/g;
for (const file of declarationFiles(join(out, 'types'))) {
  const text = readFileSync(file, 'utf8');
  const rewritten = text.replace(SPECIFIER, (match, prefix, quote, specifier) => {
    if (specifier.startsWith('.')) return match;
    if (!(specifier in VENDORED)) throw new Error(`${relative(out, file)} imports ${specifier}, which the package does not carry`);
    const target = relative(dirname(file), vendorFile(specifier)).replace(/\.d\.mts$/, '.mjs');
    return `${prefix}${quote}${target.startsWith('.') ? target : `./${target}`}${quote}`;
  });
  if (rewritten !== text) writeFileSync(file, rewritten);
}

const bundle = readFileSync(join(out, 'index.js'));
process.stderr.write(`packages/client/dist/index.js: ${bundle.length} bytes minified, ${gzipSync(bundle).length} gzipped\n`);
