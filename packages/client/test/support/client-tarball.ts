import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/** The client package's folder, packages/client. */
export const CLIENT_PACKAGE = fileURLToPath(new URL('../..', import.meta.url));

/** A file of the client package, by its path in the package: `dist/index.js`. */
export const packageFile = (path: string) => join(CLIENT_PACKAGE, path);

/**
 * Packs the client with `npm pack` in its folder, into a fresh folder, and resolves to the tarball's
 * path. It packs dist/ as the suite's global setup built it (--ignore-scripts skips the prepack
 * build): rebuilding it here would pull it from under the other test files that read it meanwhile.
 */
export async function packClient(): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'petstore-pack-'));
  const { stdout } = await promisify(execFile)('npm', ['pack', '--ignore-scripts', '--pack-destination', out, '--json'], {
    cwd: CLIENT_PACKAGE,
  });
  return join(out, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
}
