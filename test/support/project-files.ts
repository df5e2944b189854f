import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/** Every file of a project (node_modules left out), by its path from the root, with its content. */
export function snapshot(root: string, at = root): Map<string, string> {
  const files = new Map<string, string>();
  for (const name of readdirSync(at)) {
    const path = join(at, name);
    if (name === 'node_modules') continue;
    if (statSync(path).isDirectory()) for (const entry of snapshot(root, path)) files.set(...entry);
    else files.set(relative(root, path), readFileSync(path, 'utf8'));
  }
  return files;
}
