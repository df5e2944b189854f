// `npm run docs [-- --out DIR --releases DIR]`: writes the API's reference and portal artifacts from
// openapi.yaml into build/docs/ (or DIR):
// - index.html: the reference (Redocly build-docs with Redoc inlined; scripts/docs-page.html makes it
//   load nothing from the network);
// - openapi.json, openapi.yaml: the bundled spec (Redocly bundle);
// - petstore.postman_collection.json: a Postman collection (openapi-to-postmanv2);
// - catalog-info.yaml: a Backstage API entity whose definition is openapi.yaml;
// - CHANGELOG.md: the spec's changes since the release before its info.version in spec/releases/ (or
//   DIR), so that a released version lists what it added, or else the newest release, by oasdiff.
// Redocly runs through scripts/run-tool.mjs, so its telemetry stays off.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { delimiter, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { dump } from 'js-yaml';
import { parseSpec, readSpecText, SPEC_PATH } from '../src/contract/spec.js';
import { changelogBase } from './breaking-changes.js';
import { backstageDescriptor, postmanCollection, specChangelog } from './portal-artifacts.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const { values } = parseArgs({
  options: {
    out: { type: 'string', default: join(root, 'build', 'docs') },
    releases: { type: 'string', default: join(root, 'spec', 'releases') },
  },
});
const out = resolve(values.out);
mkdirSync(out, { recursive: true });

function redocly(...args: string[]): void {
  const env = { ...process.env, PATH: [join(root, 'node_modules', '.bin'), process.env['PATH']].join(delimiter) };
  const result = spawnSync(process.execPath, [join(root, 'scripts', 'run-tool.mjs'), 'redocly', ...args], {
    cwd: root,
    env,
    stdio: ['ignore', process.stderr, process.stderr],
  });
  if (result.status !== 0) throw new Error(`redocly ${args[0]} failed (exit ${result.status})`);
}

redocly('build-docs', SPEC_PATH, '--inlineBundle', '--template', join(root, 'scripts', 'docs-page.html'), '-o', join(out, 'index.html'));
redocly('bundle', SPEC_PATH, '-o', join(out, 'openapi.json'));
redocly('bundle', SPEC_PATH, '-o', join(out, 'openapi.yaml'));

const document = parseSpec(readSpecText());
const collection = await postmanCollection(readFileSync(join(out, 'openapi.json'), 'utf8'));
writeFileSync(join(out, 'petstore.postman_collection.json'), `${JSON.stringify(collection, null, 2)}\n`);
writeFileSync(join(out, 'catalog-info.yaml'), dump(backstageDescriptor(document, join(out, 'openapi.yaml')), { lineWidth: -1 }));
writeFileSync(
  join(out, 'CHANGELOG.md'),
  await specChangelog(changelogBase(values.releases, document.info.version), SPEC_PATH, document.info.title),
);
process.stderr.write(
  `wrote ${out}/: index.html, openapi.json, openapi.yaml, petstore.postman_collection.json, catalog-info.yaml, CHANGELOG.md\n`,
);
