import { existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isExampleFile } from '../scripts/example-manifest.js';
import { modules, packageFolders } from './support/workspaces.js';

/**
 * Modules with no logic of their own, and why; every other module under a package's src/ has tests
 * at its mirrored path under the same package's test/ (docs/design.md, "Tests").
 */
const WITHOUT_LOGIC: Record<string, string> = {
  'src/handlers/operation.ts': 'types only (its compile-time test is test/handlers/operation.test-d.ts)',
  'src/storage/storage.ts': 'the interfaces of a whole backend, and its one error class',
  'src/storage/pets/pets.ts': 'the PetStore interface and its types',
  'src/storage/sqlite/hand-written-stores.ts': 'generated data: the hand-written stores, composed by test/storage/pets/',
  'src/storage/postgres/hand-written-stores.ts': 'generated data: the hand-written stores, composed by test/storage/pets/',
  'src/storage/api-keys.ts': 'the ApiKeyStore interface and its types',
  'src/storage/idempotency.ts': 'the types of Idempotency-Key records',
  'src/storage/quotas.ts': 'the QuotaStore interface and its types',
  'src/storage/storage-metrics.ts': 'the types of the metrics hooks',
  'src/storage/migration.ts': 'the Migration type',
  'src/errors/stack-codes.ts': "data: the stack's default statuses, held by test/errors/registry.test.ts",
  'src/errors/document-messages.ts': "data: the document's messages, held by test/errors/registry.test.ts",
  'src/storage/resources.ts': 'the ResourceStore interface and its types',
  'src/handlers/resource-rules.ts': "the ResourceRules type of a schema's business rules",
  'src/storage/sqlite/migrations.ts': 'data, applied by the SQLite storage tests',
  'src/storage/postgres/migrations.ts': 'data, applied by the PostgreSQL storage tests',
  'packages/client/src/api-types.ts': 'types only (packages/client/test/index.test-d.ts)',
  'packages/client/src/pet-store-types.ts': "types only: the pet store example's schemas (packages/client/test/index.test-d.ts)",
  'packages/client/src/example.ts': "re-exports: the example's part of the client (packages/client/test/index.test-d.ts)",
  'packages/contract-tester/src/spec/openapi.ts': 're-exports packages/openapi-document, tested in its test/',
  'packages/contract-tester/src/checks/define.ts':
    "a check's definition type, and defineCheck, which returns it as given (its literal types kept)",
  'packages/contract-tester/src/checks/response-check.ts': 'types only: what a response check reads and returns',
  'packages/contract-tester/src/profile.ts': 'the Profile type and its empty value, read by test/config.test.ts',
};

/**
 * P/test/X/Y.test.ts, P/test/X/Y.*.test.ts (or .test-d.ts), or a folder P/test/X/Y/ of them, for
 * P/src/X/Y.ts, P being the package's folder.
 */
function hasTests(pkg: string, module: string): boolean {
  const mirrored = join(pkg, 'test', relative(join(pkg, 'src'), module).replace(/\.ts$/, ''));
  const folder = join(mirrored, '..');
  const name = mirrored.slice(folder.length + 1);
  if (existsSync(mirrored) && readdirSync(mirrored).some((file) => /\.test(-d)?\.ts$/.test(file))) return true;
  return existsSync(folder) && readdirSync(folder).some((file) => file.startsWith(`${name}.`) && /\.test(-d)?\.ts$/.test(file));
}

describe('the test layout', () => {
  it('finds the server and every workspace package, each with its src/', () => {
    const folders = packageFolders();
    expect(folders.length).toBeGreaterThan(1);
    expect(folders.filter((folder) => !existsSync(join(folder, 'src')))).toEqual([]);
  });

  it('mirrors src/ in each package: every module with logic has tests named after it', () => {
    const untested = packageFolders().flatMap((pkg) =>
      modules(join(pkg, 'src')).filter((module) => !(module in WITHOUT_LOGIC) && !hasTests(pkg, module)),
    );
    expect(untested, 'add test/… at the mirrored path in its package, or list the module in WITHOUT_LOGIC with the reason').toEqual([]);
  });

  it('lists only modules that exist as without logic (or the example had, once npm run new-api removed it)', () => {
    expect(Object.keys(WITHOUT_LOGIC).filter((module) => !existsSync(module) && !isExampleFile(module))).toEqual([]);
  });
});
