import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageFolders } from './support/workspaces.js';
import { isExampleFile } from '../scripts/example-manifest.js';

/**
 * The relative imports that cross from one package into another, each with its reason. Everything
 * else goes by package name, through the package's `exports`.
 */
const CROSSINGS: Record<string, { to: string; why: string }> = {
  'packages/client/src/': {
    to: 'generated/',
    why: 'the client is made from the spec: generated/ is its input, bundled into its dist/ by its build',
  },
  'packages/client/test/support/pet-store.ts': {
    to: 'test/support/',
    why: "the pet store is the client's test bed: its tests reach it through this one file",
  },
  'packages/contract-tester/test/support/pet-store.ts': {
    to: 'test/support/',
    why: "the pet store is the tester's test bed: its tests reach it through this one file",
  },
};

const SKIPPED = new Set(['node_modules', 'dist', 'build', 'coverage', 'test-results', 'data', '.git']);
const IMPORT = /(?:from\s+|import\s*\(\s*|import\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

function sourceFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return SKIPPED.has(entry.name) || path === 'packages' ? [] : sourceFiles(path);
    return /\.(ts|mts|mjs|js|cjs)$/.test(entry.name) ? [path] : [];
  });
}

const workspaces = packageFolders().filter((folder) => folder !== '.');
const packageOf = (path: string) => workspaces.find((folder) => path === folder || path.startsWith(`${folder}/`)) ?? '.';

/** Each relative import that leaves the package of the file it is in, as "file -> target". */
function crossings(): string[] {
  return ['.', ...workspaces].flatMap((folder) =>
    sourceFiles(folder).flatMap((file) =>
      [...readFileSync(file, 'utf8').matchAll(IMPORT)].flatMap(([, specifier]) => {
        const target = normalize(join(dirname(file), specifier!));
        return packageOf(target) === packageOf(file) ? [] : [`${file} -> ${target}`];
      }),
    ),
  );
}

const allowed = (crossing: string) =>
  Object.entries(CROSSINGS).some(([from, { to }]) => {
    const [file, target] = crossing.split(' -> ') as [string, string];
    return file.startsWith(from) && target.startsWith(to);
  });

describe('package boundaries', () => {
  it('finds the relative imports between packages', () => {
    expect(crossings().length).toBeGreaterThan(0);
  });

  it('crosses from one package into another by its name only, but where CROSSINGS says why', () => {
    expect(
      crossings().filter((crossing) => !allowed(crossing)),
      "import the package by its name (its package.json's exports), or add the crossing to CROSSINGS with the reason",
    ).toEqual([]);
  });

  it('lists no crossing that is gone', () => {
    // A crossing of the example's is gone with it once npm run new-api ran.
    const gone = (from: string) => !crossings().some((crossing) => crossing.startsWith(from)) && !isExampleFile(from);
    expect(Object.keys(CROSSINGS).filter(gone)).toEqual([]);
  });

  it.each(workspaces)('gives %s an exports map, with types, and a source folder that exists', (folder) => {
    const manifest = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { exports?: unknown; types?: string; bin?: unknown };
    expect(manifest.exports, `${folder}/package.json`).toBeTypeOf('object');
    expect(JSON.stringify(manifest.exports)).toContain('"types"');
    expect(existsSync(join(folder, 'src'))).toBe(true);
  });
});
