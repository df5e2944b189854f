import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, sep } from 'node:path';
import { PACKAGE_ROOT } from '../src/package-root.js';

/** What a copy leaves out: git's data, node_modules (linked instead) and what builds and runs write. */
const LEFT_OUT = new Set(['.git', 'node_modules', 'dist', 'data', 'coverage', 'test-results', 'build']);

/**
 * A copy of the project in a new temporary folder, with node_modules linked rather than copied, for
 * what must change the project's files without touching this one (the spec-editing tests, the
 * measure of npm run dev). Returns the copy's root; `removeProjectCopy` deletes it.
 */
export function copyProject(root: string = PACKAGE_ROOT): string {
  const copy = mkdtempSync(join(tmpdir(), 'petstore-copy-'));
  cpSync(root, copy, { recursive: true, filter: (source) => !LEFT_OUT.has(relative(root, source).split(sep)[0]!) });
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir');
  return copy;
}

export function removeProjectCopy(copy: string): void {
  rmSync(copy, { recursive: true, force: true });
}
