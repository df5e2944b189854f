import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Modules with no logic of their own, and why; every other module under src/ has tests at its
 * mirrored path (README, "Tests").
 */
const WITHOUT_LOGIC: Record<string, string> = {
  'src/handlers/operation.ts': 'types only (its compile-time test is test/handlers/operation.test-d.ts)',
  'src/storage/storage.ts': 'the interfaces of a whole backend, and its one error class',
  'src/storage/pets.ts': 'the PetStore interface and its types',
  'src/storage/api-keys.ts': 'the ApiKeyStore interface and its types',
  'src/storage/idempotency.ts': 'the IdempotencyStore interface and its types',
  'src/storage/quotas.ts': 'the QuotaStore interface and its types',
  'src/storage/storage-metrics.ts': 'the types of the metrics hooks',
  'src/storage/migration.ts': 'the Migration type',
  'src/storage/sqlite/migrations.ts': 'data, applied by the SQLite storage tests',
  'src/storage/postgres/migrations.ts': 'data, applied by the PostgreSQL storage tests',
  'src/client/api-types.ts': 'types only (test/client/index.test-d.ts)',
};

function modules(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return modules(path);
    return entry.name.endsWith('.ts') ? [relative('.', path)] : [];
  });
}

/** test/X/Y.test.ts, test/X/Y.*.test.ts (or .test-d.ts), or a folder test/X/Y/ of them, for src/X/Y.ts. */
function hasTests(module: string): boolean {
  const mirrored = join('test', module.replace(/^src\//, '').replace(/\.ts$/, ''));
  const folder = join(mirrored, '..');
  const name = mirrored.slice(folder.length + 1);
  if (existsSync(mirrored) && readdirSync(mirrored).some((file) => /\.test(-d)?\.ts$/.test(file))) return true;
  return existsSync(folder) && readdirSync(folder).some((file) => file.startsWith(`${name}.`) && /\.test(-d)?\.ts$/.test(file));
}

describe('the test layout', () => {
  it('mirrors src/: every module with logic has tests named after it', () => {
    const untested = modules('src').filter((module) => !(module in WITHOUT_LOGIC) && !hasTests(module));
    expect(untested, 'add test/… at the mirrored path, or list the module in WITHOUT_LOGIC with the reason').toEqual([]);
  });

  it('lists only modules that exist as without logic', () => {
    expect(Object.keys(WITHOUT_LOGIC).filter((module) => !existsSync(module))).toEqual([]);
  });
});
