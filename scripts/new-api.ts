// `npm run new-api -- path/to/document.yaml`: starts a new API from one's own OpenAPI document (YAML
// or JSON). It puts the document at openapi.yaml, removes the pet store example (the files of
// scripts/example-manifest.ts), resets what the example filled, and runs `npm run generate`, which
// scaffolds a handler answering 501 for each operation. Afterwards typecheck, build and start work;
// docs/starting-from-your-document.md says what to write next.
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { PACKAGE_ROOT } from '../src/package-root.js';
import { EXAMPLE_FILES, EXAMPLE_RESETS } from './example-manifest.js';
import { generate } from './generate.js';
import { checkSpec, SpecProblems } from './generate/spec-check.js';

/** The document's text, once it is known to be an OpenAPI 3.0 or 3.1 document: what openapi.yaml becomes. */
export function readDocument(path: string): string {
  const text = readFileSync(path, 'utf8');
  let document: unknown;
  try {
    document = parse(text);
  } catch (error) {
    throw new Error(`${path} is neither YAML nor JSON: ${(error as Error).message}`, { cause: error });
  }
  const version = (document as { openapi?: unknown } | null)?.openapi;
  if (typeof version !== 'string' || !/^3\.[01]\./.test(version))
    throw new Error(`${path} is no OpenAPI 3.0 or 3.1 document (its \`openapi\` is ${JSON.stringify(version ?? null)})`);
  return text;
}

/**
 * Removes the example and resets what it filled, in `root`; returns what it removed and reset. Once
 * the example is gone, nothing: what the resets cleared may hold one's own work by then.
 */
export function removeExample(root: string): { removed: string[]; reset: string[] } {
  if (!EXAMPLE_FILES.some((file) => existsSync(join(root, file)))) return { removed: [], reset: [] };
  for (const file of EXAMPLE_FILES) rmSync(join(root, file), { recursive: true, force: true });
  for (const [file, reset] of Object.entries(EXAMPLE_RESETS)) {
    const path = join(root, file);
    writeFileSync(path, typeof reset === 'string' ? reset : reset(readFileSync(path, 'utf8')));
  }
  return { removed: [...EXAMPLE_FILES], reset: Object.keys(EXAMPLE_RESETS) };
}

export async function newApi(documentPath: string, root: string = PACKAGE_ROOT): Promise<void> {
  const text = readDocument(documentPath);
  // Checked as generate will check it before anything changes: a document generate refuses leaves the project as it was.
  await checkSpec(root, documentPath);
  writeFileSync(join(root, 'openapi.yaml'), text);
  const { removed, reset } = removeExample(root);
  const example =
    removed.length === 0
      ? 'the pet store example was gone already'
      : `removed the pet store example (${removed.length} files); reset ${reset.join(', ')}`;
  process.stderr.write(`openapi.yaml is ${documentPath}; ${example}\n`);
  const { written, scaffolded, removed: generatedRemoved } = await generate({ root, migrations: true });
  process.stderr.write(
    `npm run generate wrote ${written.length} files, removed ${generatedRemoved.length} and scaffolded ${scaffolded.length} ` +
      '(a handler answering 501 for each operation, with its tests).\n' +
      'Next: npm run typecheck, npm run build, npm run keys -- create --account me, npm start ' +
      '(docs/starting-from-your-document.md).\n',
  );
}

async function main(): Promise<void> {
  const [documentPath] = process.argv.slice(2);
  if (documentPath === undefined) {
    process.stderr.write('usage: npm run new-api -- path/to/document.yaml\n');
    process.exitCode = 2;
    return;
  }
  try {
    await newApi(resolve(documentPath));
  } catch (error) {
    if (error instanceof SpecProblems) {
      process.stderr.write(`the document has problems; nothing was changed:\n${error.problems.map((p) => `  ${p}`).join('\n')}\n`);
    } else {
      process.stderr.write(`${(error as Error).message}\n`);
    }
    process.exitCode = 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
