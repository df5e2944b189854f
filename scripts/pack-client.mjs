#!/usr/bin/env node
// `npm run pack:client [-- --out DIR] [--skip-build]`: builds the typed client (scripts/build-client.mjs)
// and packs it as an npm package of its own, build/petstore-client-X.Y.Z.tgz (or in DIR), X.Y.Z being
// openapi.yaml's info.version: an ES module with its declarations and no dependencies, installable
// anywhere with `npm install ./petstore-client-X.Y.Z.tgz`. The package's files are staged in
// build/client-package/ first. --skip-build packs dist/client/ as it is (the test suite, whose global
// setup has just built it and whose other files read it meanwhile).
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { CORE_SCHEMA, load } from 'js-yaml';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: { out: { type: 'string', default: join(root, 'build') }, 'skip-build': { type: 'boolean', default: false } },
});
const out = resolve(values.out);
const stage = join(out, 'client-package');
const client = join(root, 'dist', 'client');

if (!values['skip-build']) {
  const build = spawnSync(process.execPath, [join(root, 'scripts', 'build-client.mjs')], {
    stdio: ['ignore', process.stderr, process.stderr],
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const { info } = load(readFileSync(join(root, 'openapi.yaml'), 'utf8'), { schema: CORE_SCHEMA });

rmSync(stage, { recursive: true, force: true });
mkdirSync(stage, { recursive: true });
for (const file of ['index.js', 'index.js.map', 'index.d.ts', 'types']) cpSync(join(client, file), join(stage, file), { recursive: true });

// The client's declarations import types from openapi-fetch, whose declarations import
// openapi-typescript-helpers; a project that installed only this package must still type-check.
// Their declaration files are copied into types/vendor/ as published, each beside its MIT license, and
// the bare specifiers that name them are rewritten to relative paths. That keeps the files as their
// authors wrote them and adds no tool; a declaration bundler (API Extractor, rollup-plugin-dts) would
// rewrite them, and bundleDependencies would list openapi-fetch as a dependency and ship its code a
// second time (the bundle already inlines it).
const require = createRequire(import.meta.url);
const VENDORED = ['openapi-fetch', 'openapi-typescript-helpers'];
const vendorFile = (name) => join(stage, 'types', 'vendor', name, 'index.d.mts');
const vendorVersions = {};
for (const name of VENDORED) {
  const packageDir = dirname(require.resolve(`${name}/package.json`));
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  vendorVersions[name] = manifest.version;
  // The declarations of their ESM entry ("import": "./dist/index.mjs"), which this client's imports resolve to.
  mkdirSync(dirname(vendorFile(name)), { recursive: true });
  cpSync(join(packageDir, manifest.exports['.'].import.replace(/\.mjs$/, '.d.mts')), vendorFile(name));
  cpSync(join(packageDir, 'LICENSE'), join(dirname(vendorFile(name)), 'LICENSE'));
}

function declarationFiles(directory) {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return declarationFiles(path);
    return /\.d\.m?ts$/.test(entry.name) ? [path] : [];
  });
}

const SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*)(['"])([^'"]+)\2/g;
for (const file of declarationFiles(join(stage, 'types'))) {
  const text = readFileSync(file, 'utf8');
  const rewritten = text.replace(SPECIFIER, (match, prefix, quote, specifier) => {
    if (specifier.startsWith('.')) return match;
    if (!VENDORED.includes(specifier)) throw new Error(`${relative(stage, file)} imports ${specifier}, which the package does not carry`);
    const target = relative(dirname(file), vendorFile(specifier)).replace(/\.d\.mts$/, '.mjs');
    return `${prefix}${quote}${target.startsWith('.') ? target : `./${target}`}${quote}`;
  });
  if (rewritten !== text) writeFileSync(file, rewritten);
}

const notice = `openapi-fetch ${vendorVersions['openapi-fetch']} (MIT License, Copyright (c) 2023 Drew Powers)`;
const manifest = {
  name: 'petstore-client',
  version: info.version,
  description: `Typed client for the ${info.title} ${info.version}, made from its OpenAPI document: one dependency-free ES module with TypeScript declarations.`,
  license: info.license?.identifier ?? info.license?.name ?? 'UNLICENSED',
  type: 'module',
  exports: { '.': { types: './index.d.ts', default: './index.js' }, './package.json': './package.json' },
  types: './index.d.ts',
  sideEffects: false,
  keywords: ['openapi', 'openapi-fetch', 'petstore'],
};
writeFileSync(join(stage, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
writeFileSync(
  join(stage, 'README.md'),
  `# petstore-client ${info.version}

The typed client of the ${info.title} ${info.version}: an [openapi-fetch](https://openapi-ts.dev/openapi-fetch/)
client typed from the API's OpenAPI document, as one ES module with no imports (it loads in browsers,
Node, Deno and Bun) and its TypeScript declarations.

\`\`\`ts
import { createPetStoreClient, listAllPets } from 'petstore-client';

const client = createPetStoreClient({ baseUrl: 'https://api.petstore.example/v1', apiKey: 'psk_...' });
const { data: pet, error } = await client.POST('/pets', { body: { name: 'Rex', categoryId: 3, status: 'available' } });
for await (const { name } of listAllPets(client, { status: 'available' })) console.log(name);
\`\`\`

Includes ${notice} in index.js, and its declarations and those of openapi-typescript-helpers
${vendorVersions['openapi-typescript-helpers']} (same license and holder) in types/vendor/, each with its license.
`,
);

const packed = JSON.parse(
  execFileSync('npm', ['pack', stage, '--pack-destination', out, '--json', '--ignore-scripts'], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  }),
);
process.stdout.write(`${join(out, packed[0].filename)}\n`);
