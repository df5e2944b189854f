import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { modules, packageFolders } from './support/workspaces.js';

interface Manifest {
  name: string;
  private?: boolean;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
}

const manifestOf = (folder: string) => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest;
const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

/**
 * The packages a folder's src/ needs when it runs: what it imports (statically or with import(),
 * types included), and what it only resolves, as the server does for swagger-ui-dist, whose files
 * it serves.
 */
function packagesUsed(folder: string): string[] {
  const used = new Set<string>();
  for (const file of modules(join(folder, 'src'))) {
    const text = readFileSync(file, 'utf8');
    const imported = ts.preProcessFile(text, true, true).importedFiles.map(({ fileName }) => fileName);
    const resolved = [...text.matchAll(/\.resolve\('([^']+)'\)/g)].map((match) => match[1]!);
    for (const specifier of [...imported, ...resolved]) {
      if (!specifier.startsWith('.') && !specifier.startsWith('node:')) used.add(packageName(specifier));
    }
  }
  return [...used].sort();
}

/** The private workspace packages: source only, bundled by every build that uses them, so devDependencies. */
const BUNDLED = packageFolders()
  .filter((folder) => folder !== '.')
  .map(manifestOf)
  .filter((manifest) => manifest.private)
  .map(({ name }) => name);

describe.each(packageFolders())('the dependencies of the package in %s', (folder) => {
  const manifest = manifestOf(folder);
  const used = packagesUsed(folder).filter((name) => !BUNDLED.includes(name));

  it('lists the private packages its src/ uses as devDependencies: its build bundles them', () => {
    const bundled = packagesUsed(folder).filter((name) => BUNDLED.includes(name));
    expect(bundled.filter((name) => !(name in (manifest.devDependencies ?? {})))).toEqual([]);
  });

  it('are what its src/ uses at run time, no more, no less (the rest are devDependencies)', () => {
    if (manifest.name === 'petstore-client') {
      // The client is one dependency-free module: what it uses is bundled in when it is built.
      expect(manifest.dependencies).toBeUndefined();
      expect(used.filter((name) => !(name in (manifest.devDependencies ?? {})))).toEqual([]);
      return;
    }
    expect(Object.keys(manifest.dependencies ?? {}).sort(), `${folder}/package.json "dependencies"`).toEqual(used);
  });
});

describe('the Node lines', () => {
  const root = JSON.parse(readFileSync('package.json', 'utf8')) as {
    engines: { node: string };
    config: { nodeVersions: Record<string, string>; addonHeaders: Record<string, string> };
  };
  const engineLines = root.engines.node.split('||').map((range) => /^\^(\d+)\.\d+\.\d+$/.exec(range.trim())?.[1]);

  it("of engines are one caret range per line: each one CI pins for scripts/with-node.sh, and the machine's", () => {
    expect(engineLines).not.toContain(undefined);
    const pinned = Object.keys(root.config.nodeVersions);
    expect(engineLines).toEqual(expect.arrayContaining([...pinned, process.versions.node.split('.')[0]]));
    expect(
      engineLines.filter((line) => !pinned.includes(line!)),
      'the one line CI runs unpinned, on the machine',
    ).toHaveLength(1);
  });

  it('pin exact versions, the addon headers included, each of its own line', () => {
    for (const [line, version] of [...Object.entries(root.config.nodeVersions), ...Object.entries(root.config.addonHeaders)]) {
      expect(version).toMatch(new RegExp(`^${line}\\.\\d+\\.\\d+$`));
    }
  });
});
