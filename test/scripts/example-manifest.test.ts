import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_FILES, EXAMPLE_RESETS, isExampleFile as removed } from '../../scripts/example-manifest.js';
import { PACKAGE_ROOT } from '../../src/package-root.js';

/** Where code lives: what an import of a removed file would break. */
const CODE_FOLDERS = ['src', 'test', 'scripts', 'generated', 'bench', 'examples', 'packages'];
const CODE = /\.(ts|mts|mjs|js)$/;
/** `npm run generate` writes these again from the new document, so what they import now does not count. */
const REGENERATED = 'Generated from openapi.yaml by `npm run generate`';

/** What installs and builds make: no source of the project's. */
const SKIPPED = new Set(['node_modules', 'dist']);

function codeFiles(dir: string): string[] {
  return readdirSync(join(PACKAGE_ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (SKIPPED.has(entry.name)) return [];
    if (entry.isDirectory()) return codeFiles(path);
    return CODE.test(entry.name) ? [path] : [];
  });
}

/** The project's files each relative import names (`./x.js` names x.ts when there is no x.js). */
function importsOf(file: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g)].map((match) => match[1]!);
  return specifiers.map((specifier) => {
    const path = normalize(join(dirname(file), specifier));
    return existsSync(join(PACKAGE_ROOT, path)) ? path : path.replace(/\.js$/, '.ts');
  });
}

describe('the pet store example manifest (scripts/example-manifest.ts)', () => {
  it('lists files and folders that all exist (the pet store) or are all gone (after npm run new-api), each once', () => {
    const present = EXAMPLE_FILES.filter((file) => existsSync(join(PACKAGE_ROOT, file)));
    expect(present.length === 0 ? [] : EXAMPLE_FILES.filter((file) => !present.includes(file))).toEqual([]);
    expect(Object.keys(EXAMPLE_RESETS).filter((file) => !existsSync(join(PACKAGE_ROOT, file)))).toEqual([]);
    expect(new Set(EXAMPLE_FILES).size).toBe(EXAMPLE_FILES.length);
  });

  it('leaves no file, and no reset file, that imports one it removes', () => {
    const kept = CODE_FOLDERS.flatMap(codeFiles)
      .map((file) => relative('.', file))
      .filter((file) => !removed(file) && !(file in EXAMPLE_RESETS))
      .map((file) => ({ file, text: readFileSync(join(PACKAGE_ROOT, file), 'utf8') }))
      .filter(({ text }) => !text.slice(0, 200).includes(REGENERATED));
    const resets = Object.entries(EXAMPLE_RESETS).map(([file, reset]) => ({
      file,
      text: typeof reset === 'string' ? reset : reset(readFileSync(join(PACKAGE_ROOT, file), 'utf8')),
    }));
    const broken = [...kept, ...resets].flatMap(({ file, text }) =>
      importsOf(file, text)
        .filter(removed)
        .map((target) => `${file} imports ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it('catches an import of a removed file', () => {
    const [file] = EXAMPLE_FILES.filter((path) => CODE.test(path));
    const importer = join(dirname(file!), 'importer.ts');
    const specifier = `./${file!.slice(dirname(file!).length + 1).replace(/\.ts$/, '.js')}`;
    expect(importsOf(importer, `import { x } from '${specifier}';`).filter(removed)).toEqual([file]);
  });
});
