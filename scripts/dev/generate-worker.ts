// npm run generate for npm run dev, in a process that stays (a warm process running this module,
// generator.ts its other end): each { type: 'generate' } runs generate() and reports once the spec
// has passed its checks (the old server can stop), once the files the server runs on are written
// (the new one can start while the types are made), and then what it wrote, or why the spec cannot
// be served. It generates once into a scratch folder as it starts, so that the first real run
// finds its code compiled.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generate, type GenerateResult } from '../generate.js';
import { SpecProblems } from '../generate/spec-check.js';

export type GenerateReport =
  | { type: 'valid' }
  | { type: 'server-files' }
  | { type: 'generated'; result: GenerateResult }
  | { type: 'invalid'; problems: readonly string[] };

const report = (message: GenerateReport) => new Promise<void>((resolve) => process.send!(message, () => resolve()));

async function run(): Promise<void> {
  try {
    const result = await generate({
      onValid: () => void report({ type: 'valid' }),
      onServerFiles: () => void report({ type: 'server-files' }),
    });
    await report({ type: 'generated', result });
  } catch (error) {
    const problems = error instanceof SpecProblems ? error.problems : [String((error as Error).stack ?? error)];
    await report({ type: 'invalid', problems });
  }
}

async function warmUp(): Promise<void> {
  const scratch = mkdtempSync(join(tmpdir(), 'petstore-dev-generate-'));
  // A spec that fails now is reported by the real run.
  await generate({ out: scratch }).catch(() => undefined);
  rmSync(scratch, { recursive: true, force: true });
}

let queue = warmUp();
process.on('message', (message: { type?: string }) => {
  if (message.type === 'generate') queue = queue.then(run);
});
