// `npm run check:breaking [REVISION] [--base RELEASE]`: fails when openapi.yaml (or REVISION) breaks
// the newest release in spec/releases/ in a way the versioning policy (docs/versioning.md) does not allow.
import { parseArgs } from 'node:util';
import { checkBreaking, compatibleAlternative, describeChange, latestRelease } from './breaking-changes.js';

const { values, positionals } = parseArgs({ options: { base: { type: 'string' } }, allowPositionals: true });
const revisionFile = positionals[0] ?? 'openapi.yaml';
const baseFile = values.base ?? latestRelease('spec/releases');

const result = await checkBreaking(baseFile, revisionFile);
process.stdout.write(
  `${revisionFile} (${result.revisionVersion}) against ${baseFile} (${result.baseVersion}): ${result.breaking.length} breaking change(s)\n`,
);
for (const change of result.breaking) {
  process.stdout.write(`  ${describeChange(change)}\n`);
  const alternative = result.problems.length > 0 ? compatibleAlternative(change) : undefined;
  if (alternative) process.stdout.write(`    compatible instead: ${alternative}\n`);
}
for (const problem of result.problems) process.stderr.write(`✖ ${problem}\n`);
process.exitCode = result.problems.length > 0 ? 1 : 0;
