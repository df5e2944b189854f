import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The server at the root ('.'), and each workspace package (the folders package.json's `workspaces` names). */
export function packageFolders(): string[] {
  const { workspaces } = JSON.parse(readFileSync('package.json', 'utf8')) as { workspaces: string[] };
  const folders = workspaces.flatMap((pattern) => {
    if (!pattern.endsWith('/*')) return [pattern];
    const parent = pattern.slice(0, -2);
    return readdirSync(parent, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? [join(parent, entry.name)] : []));
  });
  return ['.', ...folders];
}

/** The TypeScript modules under a folder, as paths relative to the repository's root. */
export function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}
