import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Packs the client as `npm run pack:client` does, into a fresh folder, and resolves to the tarball's
 * path. It packs dist/client/ as the suite's global setup built it (--skip-build): rebuilding it here
 * would pull it from under the other test files that read it meanwhile.
 */
export async function packClient(): Promise<string> {
  const out = mkdtempSync(join(tmpdir(), 'petstore-pack-'));
  const { stdout } = await promisify(execFile)(process.execPath, ['scripts/pack-client.mjs', '--out', out, '--skip-build']);
  return stdout.trim();
}
