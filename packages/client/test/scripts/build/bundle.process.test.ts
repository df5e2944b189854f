import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { clientApiPerTest } from '../../support/client-api.js';
import { checkClientScenario, clientScenarioScript } from '../../support/client-scenario.js';
import { packageFile } from '../../support/client-tarball.js';
import { backends } from '../../support/pet-store.js';

const BUNDLE = packageFile('dist/index.js');

function hasNodeModulesAbove(folder: string): boolean {
  for (let dir = folder; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

describe('the client bundle, dist/index.js', () => {
  const text = readFileSync(BUNDLE, 'utf8');

  it('imports nothing: no require, no node: built-ins, no server dependencies', () => {
    expect(text).not.toContain('require(');
    expect(text).not.toMatch(/from\s*["']node:/);
    expect(text).not.toMatch(/import\(\s*["']node:/);
    expect(text).not.toMatch(/\bimport\s*["'`]|\bfrom\s*["'`]/); // no import of any module at all
    expect(text).not.toMatch(/express|better-sqlite3|sqlite/i);
  });

  it("is the size the package's README.md states, give or take 10%", () => {
    const stated = /\*\*([\d,]+) bytes minified/.exec(readFileSync(packageFile('README.md'), 'utf8'))?.[1];
    expect(stated, 'packages/client/README.md states the bundle size').toBeDefined();
    expect(Math.abs(Buffer.byteLength(text) / Number(stated!.replace(/,/g, '')) - 1)).toBeLessThan(0.1);
  });

  it('ships the declarations next to it, self-contained in dist/', () => {
    expect(readFileSync(packageFile('dist/index.d.ts'), 'utf8')).toContain("from './types/packages/client/src/index.js'");
    expect(readFileSync(packageFile('dist/types/generated/openapi.d.ts'), 'utf8')).toBe(
      readFileSync(packageFile('../../generated/openapi.d.ts'), 'utf8'),
    );
  });
});

describe.each(backends)('the client bundle, copied alone to a folder without node_modules ($name)', (backend) => {
  const api = clientApiPerTest(backend);

  it('creates, pages through and reports errors against the real server from a child node process', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-bundle-'));
    expect(hasNodeModulesAbove(folder)).toBe(false);
    copyFileSync(BUNDLE, join(folder, 'index.js'));
    writeFileSync(join(folder, 'run.mjs'), clientScenarioScript('./index.js'));

    const { stdout } = await promisify(execFile)(process.execPath, ['run.mjs', api().server.baseUrl, api().apiKey], {
      cwd: folder,
      env: { PATH: process.env['PATH'] ?? '' },
    });
    checkClientScenario(stdout);
  });
});
