import { existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * Writes the file only when its content changes, so that a regeneration that changes nothing
 * touches nothing (a watcher would restart the server for it). Returns whether it wrote.
 */
export function writeIfChanged(path: string, content: string): boolean {
  if (existsSync(path) && readFileSync(path, 'utf8') === content) return false;
  writeFileSync(path, content);
  return true;
}
