#!/usr/bin/env node
// Builds the contract tester into dist/cli.js, the package's bin: its own modules and the private
// workspace packages it imports (its devDependencies) in one ES module, its dependencies imported
// from node_modules as its package.json installs them. Type checking is
// tsc's job (npm run typecheck at the repository's root); esbuild only strips the types.
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outfile = join(root, 'dist', 'cli.js');
const { dependencies } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

await build({
  absWorkingDir: root,
  entryPoints: ['src/cli.ts'],
  outfile,
  bundle: true,
  external: Object.keys(dependencies),
  format: 'esm',
  platform: 'node',
  target: 'node20',
  logLevel: 'warning',
});
// npm marks a bin executable when it installs the package; `node dist/cli.js` needs no mark, but
// running the file itself from a checkout does.
chmodSync(outfile, 0o755);
