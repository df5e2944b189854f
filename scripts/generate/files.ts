import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

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
