import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Writes `text` to `path` unless the file already holds exactly that. An unchanged file keeps its
 * modification time, so what watches it (npm run dev, tsc --watch, scripts/ensure-built.mjs) sees
 * no change. Returns whether it wrote.
 */
export function writeIfChanged(path: string, text: string): boolean {
  try {
    if (readFileSync(path, 'utf8') === text) return false;
  } catch {
    // Not there yet (or unreadable): written below, which reports the real problem if there is one.
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
  return true;
}

/**
 * Creates `path` with `text` unless something is already there (orval's 'smart' mode): a file that
 * exists, edited or not, is never overwritten. Returns whether it wrote.
 */
export function createIfAbsent(path: string, text: string): boolean {
  mkdirSync(dirname(path), { recursive: true });
  try {
    writeFileSync(path, text, { flag: 'wx' });
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Deletes the files of `folder` that are not in `kept` (full paths): in a folder only the generator
 * writes, a file it no longer writes is for an operation the spec no longer has, and would not compile.
 * Returns the deleted paths.
 */
export function removeAllBut(folder: string, kept: readonly string[]): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  const stale = names.map((name) => join(folder, name)).filter((path) => !kept.includes(path));
  for (const path of stale) rmSync(path, { recursive: true, force: true });
  return stale;
}
