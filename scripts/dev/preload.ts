import { resolve } from 'node:path';
import { build } from 'esbuild';

export interface ModuleGraph {
  /** The packages it imports, directly or through the project's modules (statically or not). */
  packages: string[];
  /** The project's files it is made of (absolute paths), the module's own included. */
  files: string[];
  /** Those of its files that import nothing under generated/, even indirectly (absolute paths). */
  independentOfGenerated: string[];
}

/**
 * What a module is made of: the packages a warm process (warm-process.ts) loads ahead of need, and
 * the project's files whose change makes a process that has loaded it stale. esbuild follows the
 * imports without bundling anything, so it is cheap to ask again.
 */
export async function moduleGraph(root: string, entry: string): Promise<ModuleGraph> {
  const { metafile } = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  });
  const packages = new Set<string>();
  for (const input of Object.values(metafile.inputs)) {
    for (const { path, external } of input.imports) {
      if (external && !path.startsWith('node:') && !path.startsWith('.')) packages.add(path);
    }
  }
  const imports = new Map(Object.entries(metafile.inputs).map(([file, input]) => [file, input.imports.filter((i) => !i.external)]));
  const dependsOnGenerated = new Map<string, boolean>();
  const generated = (file: string): boolean => {
    if (!dependsOnGenerated.has(file)) {
      dependsOnGenerated.set(file, false); // an import cycle adds nothing
      dependsOnGenerated.set(file, file.startsWith('generated/') || (imports.get(file) ?? []).some(({ path }) => generated(path)));
    }
    return dependsOnGenerated.get(file)!;
  };
  const files = [...imports.keys()];
  return {
    packages: [...packages].sort(),
    files: files.map((file) => resolve(root, file)),
    independentOfGenerated: files.filter((file) => !generated(file)).map((file) => resolve(root, file)),
  };
}
