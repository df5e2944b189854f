import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageFolders } from './support/workspaces.js';

const scriptsOf = (folder: string) =>
  (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};

/**
 * A package's own tsconfig.json is a program of its own: a file it includes can type-check in the
 * root's program (which includes everything) and fail in it, as a declaration merged in from a file
 * only the root includes. `npm run typecheck` (which `npm test`, and so CI, runs first) checks each.
 */
describe('npm run typecheck', () => {
  it("runs the root's tsconfig.json and then every workspace's typecheck", () => {
    expect(scriptsOf('.')['typecheck']).toBe('tsc -p tsconfig.json && npm run typecheck --workspaces');
  });

  it.each(packageFolders().filter((folder) => folder !== '.'))('covers %s/tsconfig.json', (folder) => {
    expect(existsSync(join(folder, 'tsconfig.json'))).toBe(true);
    expect(scriptsOf(folder)['typecheck'], `${folder}/package.json "scripts"`).toBe('tsc -p tsconfig.json');
  });
});
