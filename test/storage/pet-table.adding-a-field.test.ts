import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseDocument } from 'yaml';
import { copyProject, removeProjectCopy } from '../../scripts/project-copy.js';
import { postgresMigrations } from '../../src/storage/postgres/migrations.js';
import { sqliteMigrations } from '../../src/storage/sqlite/migrations.js';
import { postgresBackend, sqliteBackend } from '../support/backends.js';

/**
 * docs/adding-a-field.md, followed on a copy of the project: an optional `nickname` added to Pet and
 * NewPet (and PetPatch, so that an update may change it) in openapi.yaml, then `npm run generate`.
 * Without a migration, neither backend opens, and each says which file to change; with one migration
 * per backend, a pet round-trips its nickname through every way storage writes and reads pets.
 */

function addNickname(copy: string): void {
  const path = join(copy, 'openapi.yaml');
  const spec = parseDocument(readFileSync(path, 'utf8'));
  for (const schema of ['Pet', 'NewPet', 'PetPatch']) {
    spec.setIn(['components', 'schemas', schema, 'properties', 'nickname'], {
      type: 'string',
      maxLength: 40,
      description: 'What the animal answers to.',
      examples: ['Rexy'],
    });
  }
  writeFileSync(path, spec.toString());
}

/** Appends a migration to a backend's list of them, as the page says to. */
function addMigration(file: string, version: number, sql: string): void {
  const source = readFileSync(file, 'utf8');
  const end = source.lastIndexOf('];');
  writeFileSync(
    file,
    `${source.slice(0, end)}  { version: ${version}, name: 'pet nicknames', sql: ${JSON.stringify(sql)} },\n${source.slice(end)}`,
  );
}

/** Every way storage writes and reads a pet, run in the copy on each store: what came back, or why it failed. */
const PROBE = `
import { openStorage } from './src/storage/open-storage.js';

const report = {};
for (const [backend, url] of process.argv.slice(2).map((arg) => arg.split('=', 2))) {
  let storage;
  try {
    storage = await openStorage(url);
    // At once, so that PostgreSQL inserts them as one batch.
    const created = await Promise.all([
      storage.createPet({ name: 'Rex', categoryId: 3, nickname: 'Rexy' }),
      storage.createPet({ name: 'Tom', categoryId: 4 }),
      storage.createPet({ name: 'Kit', categoryId: 5, status: 'sold', nickname: 'Kitty' }),
    ]);
    const { id: accountId } = await storage.ensureAccount('probe');
    const now = new Date();
    let responded;
    await storage.createPetIdempotently(
      { name: 'Max', categoryId: 6, nickname: 'Maxi' },
      { accountId, key: 'k', fingerprint: 'f', now, expiresAt: new Date(now.getTime() + 60_000) },
      (pet) => ((responded = pet), { status: 201, headers: {}, body: new Uint8Array() }),
    );
    const read = await Promise.all(created.map(async (pet) => (await storage.getPet(pet.id)).pet));
    const updated = [
      await storage.updatePet(created[1].id, { nickname: 'Tommy' }),
      await storage.updatePet(created[0].id, { categoryId: 7 }),
    ];
    report[backend] = { created, responded, read, updated, page: await storage.listPets({ limit: 10 }), sold: await storage.listPets({ limit: 10, status: 'sold' }) };
  } catch (error) {
    report[backend] = { error: error.message };
  } finally {
    await storage?.close();
  }
}
process.stdout.write(JSON.stringify(report));
`;

function probe(copy: string, urls: Record<string, string>): Record<string, Record<string, unknown>> {
  const args = Object.entries(urls).map(([backend, url]) => `${backend}=${url}`);
  const output = execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'probe.ts', ...args], { cwd: copy, encoding: 'utf8' });
  return JSON.parse(output) as Record<string, Record<string, unknown>>;
}

describe('adding a field to Pet (docs/adding-a-field.md)', () => {
  it('fails each backend without its migration, naming the file to change; round-trips the field once it has one', async () => {
    const copy = copyProject();
    onTestFinished(() => removeProjectCopy(copy));
    writeFileSync(join(copy, 'probe.ts'), PROBE);
    addNickname(copy);
    execFileSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/generate.ts'], { cwd: copy, stdio: 'pipe' });
    expect(readFileSync(join(copy, 'generated', 'tables.ts'), 'utf8')).toContain("property: 'nickname', column: 'nickname'");

    const urls = { sqlite: await sqliteBackend.createDatabaseUrl(), postgres: await postgresBackend.createDatabaseUrl() };
    const unpersisted = probe(copy, urls);
    expect(unpersisted['sqlite']!['error']).toBe(
      'table pets has no column for Pet.nickname and NewPet.nickname (column "nickname" TEXT) of openapi.yaml: ' +
        'add it in a new migration in src/storage/sqlite/migrations.ts (docs/adding-a-field.md)',
    );
    expect(unpersisted['postgres']!['error']).toBe(
      'table pets has no column for Pet.nickname and NewPet.nickname (column "nickname" text) of openapi.yaml: ' +
        'add it in a new migration in src/storage/postgres/migrations.ts (docs/adding-a-field.md)',
    );

    addMigration(join(copy, 'src/storage/sqlite/migrations.ts'), sqliteMigrations.length + 1, 'ALTER TABLE pets ADD COLUMN nickname TEXT');
    addMigration(
      join(copy, 'src/storage/postgres/migrations.ts'),
      postgresMigrations.length + 1,
      `ALTER TABLE pets ADD COLUMN nickname text;
       CREATE INDEX pets_status_id_covering ON pets (status, id) INCLUDE (name, category_id, nickname);
       DROP INDEX pets_status_id;
       ALTER INDEX pets_status_id_covering RENAME TO pets_status_id;`,
    );
    // The same stores, migrated forward on opening.
    const persisted = probe(copy, urls);
    const rex = { id: 1, name: 'Rex', categoryId: 3, nickname: 'Rexy' };
    const tom = { id: 2, name: 'Tom', categoryId: 4 };
    const kit = { id: 3, name: 'Kit', categoryId: 5, status: 'sold', nickname: 'Kitty' };
    const max = { id: 4, name: 'Max', categoryId: 6, nickname: 'Maxi' };
    for (const backend of ['sqlite', 'postgres']) {
      expect(persisted[backend], backend).toEqual({
        created: [rex, tom, kit],
        responded: max,
        read: [rex, tom, kit],
        updated: [
          { kind: 'updated', pet: { pet: { ...tom, nickname: 'Tommy' }, version: 2 } },
          { kind: 'updated', pet: { pet: { ...rex, categoryId: 7 }, version: 2 } },
        ],
        page: [{ ...rex, categoryId: 7 }, { ...tom, nickname: 'Tommy' }, kit, max],
        sold: [kit],
      });
    }
  }, 180_000);
});
