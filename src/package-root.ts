import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The package root, where openapi.yaml and public/ live. Found by walking up from this module
 * rather than by a fixed number of `..`: the module sits at a different depth in src/ (tests, tsx)
 * and in the server bundle (dist/, or a chunk in dist/chunks/).
 */
export const PACKAGE_ROOT = findPackageRoot(dirname(fileURLToPath(import.meta.url)));

function findPackageRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'openapi.yaml')) && existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`openapi.yaml not found in ${start} or any folder above it`);
  }
}
