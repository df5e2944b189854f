import { existsSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { packageFolders } from './support/workspaces.js';

const scriptsOf = (folder: string) =>
  (JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts ?? {};

/**
 * tsc on a tsconfig.json, keeping what it learnt for the next run in node_modules/.cache (one file
 * per program; the builds' programs keep none): `npm test` checks again only what changed.
 */
const incremental = (name: string, nodeModules: string) =>
  `tsc -p tsconfig.json --incremental --tsBuildInfoFile ${nodeModules}/.cache/tsc/${name}.tsbuildinfo`;

/**
 * A package's own tsconfig.json is a program of its own: a file it includes can type-check in the
 * root's program (which includes everything) and fail in it, as a declaration merged in from a file
 * only the root includes. `npm run typecheck` (which `npm test`, and so CI, runs first) checks each.
 */
describe('npm run typecheck', () => {
  it("runs the root's tsconfig.json and then every workspace's typecheck", () => {
    expect(scriptsOf('.')['typecheck']).toBe(`${incremental('root', 'node_modules')} && npm run typecheck --workspaces`);
  });

  it.each(packageFolders().filter((folder) => folder !== '.'))('covers %s/tsconfig.json', (folder) => {
    expect(existsSync(join(folder, 'tsconfig.json'))).toBe(true);
    expect(scriptsOf(folder)['typecheck'], `${folder}/package.json "scripts"`).toBe(incremental(basename(folder), '../../node_modules'));
  });
});
