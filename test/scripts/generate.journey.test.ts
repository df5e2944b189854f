import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseDocument } from 'yaml';
import { copyProject, removeProjectCopy } from '../../scripts/project-copy.js';
import { postgresMigrations } from '../../src/storage/postgres/migrations.js';
import { sqliteMigrations } from '../../src/storage/sqlite/migrations.js';
import { postgresBackend, sqliteBackend } from '../support/backends.js';
import { withReplacePet } from '../support/new-operation.js';
import { startServer, tempDatabaseUrl } from '../support/processes.js';

/**
 * The first edits a user makes, replayed on one copy of the project by following docs/: an optional
 * `nickname` on Pet, NewPet and PetPatch (docs/adding-a-field.md) and a new operation, `PUT /pets/{petId}`
 * (docs/editing-the-spec.md). Each step's check fails where the docs say, naming the fix; once the
 * hand edits the docs list are made, the field is kept and the operation is served.
 */

/** openapi.yaml with `nickname` on Pet, NewPet and PetPatch, and replacePet documenting all but `without`'s error responses. */
function editedSpec(spec: string, without: string[] = []): string {
  const document = parseDocument(spec);
  for (const schema of ['Pet', 'NewPet', 'PetPatch']) {
    document.setIn(['components', 'schemas', schema, 'properties', 'nickname'], {
      type: 'string',
      maxLength: 40,
      description: 'What the animal answers to.',
      examples: ['Rexy'],
    });
  }
  return withReplacePet(document.toString(), { without });
}

/** Appends a migration to a backend's list of them, as docs/adding-a-field.md says to. */
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

const SCAFFOLD = ['src/handlers/replace-pet.ts', 'test/handlers/replace-pet.test.ts', 'test/http/app/replace-pet.test.ts'];

// Two lint CLIs, two generator runs, a type check and a test run of a whole project: minutes on a
// busy machine.
describe('a field and an operation added to openapi.yaml, following docs/ (on a copy of the project)', { timeout: 300_000 }, () => {
  let copy: string;
  // Each run is given less than the test's timeout, so that one that hangs fails with what it printed.
  const run = (command: string, args: string[], env: Record<string, string> = {}) =>
    spawnSync(command, args, {
      cwd: copy,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', ...env },
      timeout: 240_000,
      killSignal: 'SIGKILL',
    });
  const node = (args: string[], env: Record<string, string> = {}) => run(process.execPath, args, env);
  const generate = () => node(['node_modules/tsx/dist/cli.mjs', 'scripts/generate.ts']);
  const read = (file: string) => readFileSync(join(copy, file), 'utf8');
  let spec: string;
  const databases: Record<string, string> = {};

  function probe(): Record<string, Record<string, unknown>> {
    const probed = node(['node_modules/tsx/dist/cli.mjs', 'probe.ts', ...Object.entries(databases).map((entry) => entry.join('='))]);
    expect(probed.status, probed.stderr).toBe(0);
    return JSON.parse(probed.stdout) as Record<string, Record<string, unknown>>;
  }

  beforeAll(async () => {
    copy = copyProject();
    spec = read('openapi.yaml');
    writeFileSync(join(copy, 'probe.ts'), PROBE);
    databases['sqlite'] = await sqliteBackend.createDatabaseUrl();
    databases['postgres'] = await postgresBackend.createDatabaseUrl();
  });
  afterAll(() => removeProjectCopy(copy));

  const REQUIRED = ['413', '415', '429', '500', '503'];

  it('npm run lint:spec fails on the operation without the required error responses, naming each line to add', () => {
    const edited = editedSpec(spec, REQUIRED);
    writeFileSync(join(copy, 'openapi.yaml'), edited);
    const lines = edited.split('\n');
    const responses = lines.indexOf('      responses:', lines.indexOf('      operationId: replacePet')) + 1;
    const lint = run('npm', ['run', '--silent', 'lint:spec']);
    const findings = lint.stdout
      .split('\n')
      .map((line) => / (\d+):\d+ +error +\S+ +(PUT \/pets\/\{petId\} does not document .*?) {2,}/.exec(line))
      .filter((match) => match !== null)
      .map(([, line, message]) => `${line}: ${message}`);
    expect(findings.sort(), lint.stdout + lint.stderr).toEqual(
      REQUIRED.map((status): unknown =>
        expect.stringMatching(
          new RegExp(
            `^${responses}: PUT /pets/\\{petId\\} does not document ${status}\\b.*: add '${status}': \\{ \\$ref: '#/components/responses/\\w+' \\} to its responses$`,
          ),
        ),
      ),
    );
    expect(lint.status).not.toBe(0);
  });

  it('npm run generate scaffolds the operation and describes the field to storage; typecheck then passes', () => {
    writeFileSync(join(copy, 'openapi.yaml'), editedSpec(spec));
    const generated = generate();
    expect(generated.stderr).toContain(`scaffolded (answering 501 until written): ${SCAFFOLD.join(', ')}`);
    expect(generated.status).toBe(0);
    expect(read('src/handlers/index.ts')).toContain('replacePet: replacePet(deps),');
    expect(read('generated/tables.ts')).toContain("property: 'nickname', column: 'nickname'");
    const typecheck = node(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);
    expect(typecheck.stdout).toBe('');
    expect(typecheck.status).toBe(0);
  });

  it('refuses to open either store before its migration, naming the file to change', () => {
    const unpersisted = probe();
    expect(unpersisted['sqlite']!['error']).toBe(
      'table pets has no column for Pet.nickname and NewPet.nickname (column "nickname" TEXT) of openapi.yaml: ' +
        'add it in a new migration in src/storage/sqlite/migrations.ts (docs/adding-a-field.md)',
    );
    expect(unpersisted['postgres']!['error']).toBe(
      'table pets has no column for Pet.nickname and NewPet.nickname (column "nickname" text) of openapi.yaml: ' +
        'add it in a new migration in src/storage/postgres/migrations.ts (docs/adding-a-field.md)',
    );
  });

  it('round-trips the field through every way storage writes and reads pets, with one migration per backend', () => {
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
    const persisted = probe();
    const rex = { id: 1, name: 'Rex', categoryId: 3, nickname: 'Rexy' };
    const tom = { id: 2, name: 'Tom', categoryId: 4 };
    const kit = { id: 3, name: 'Kit', categoryId: 5, status: 'sold', nickname: 'Kitty' };
    const max = { id: 4, name: 'Max', categoryId: 6, nickname: 'Maxi' };
    for (const backend of Object.keys(databases)) {
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
  });

  it('serves both: createPet keeps the nickname, and the new operation is validated, documented and answers 501', async () => {
    const server = await startServer({ DATABASE_URL: tempDatabaseUrl() }, { cwd: copy, args: ['--import', 'tsx', 'src/main.ts'] });
    try {
      const key = server.output.map((line) => /^\s+(psk_\S+)$/.exec(line)?.[1]).find(Boolean);
      const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
      const created = await fetch(`${server.baseUrl}/pets`, {
        method: 'POST',
        headers,
        body: '{"name":"Rex","categoryId":3,"nickname":"Rexy"}',
      });
      expect(created.status).toBe(201);
      expect(await created.json()).toEqual({ id: 1, name: 'Rex', categoryId: 3, nickname: 'Rexy' });

      const url = `${server.baseUrl}/pets/1`;
      const answer = await fetch(url, { method: 'PUT', headers, body: '{"name":"Rex","categoryId":3}' });
      expect(answer.status).toBe(501);
      expect(await answer.json()).toEqual({
        code: 'not_implemented',
        status: 501,
        message: 'PUT /v1/pets/{petId} is not implemented yet.',
      });
      const invalid = await fetch(url, { method: 'PUT', headers, body: '{"categoryId":3}' });
      expect(invalid.status).toBe(400);
      expect(await invalid.json()).toEqual({ code: 'validation_failed', status: 400, message: 'Invalid request: body.name is required.' });
      const published = (await (await fetch(new URL('/openapi.json', server.baseUrl))).json()) as { paths: Record<string, object> };
      expect(published.paths['/pets/{petId}']).toHaveProperty('put.operationId', 'replacePet');
    } finally {
      await server.stop();
    }
  });

  it('scaffolds tests that pass', () => {
    // The copy's own vitest, on the scaffolded files only, with the PostgreSQL server and database
    // prefix of this run (its global setup then starts none, and leaves the clean-up to this run) and
    // without the build of dist/ they do not use.
    writeFileSync(
      join(copy, 'vitest.scaffold.config.ts'),
      `import base from './vitest.config.ts';
export default { ...base, test: { ...base.test, globalSetup: ['test/support/postgres-global-setup.ts'] } };
`,
    );
    const vitest = node(['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.scaffold.config.ts', ...SCAFFOLD.slice(1)], {
      TEST_DATABASE_URL: inject('postgresAdminUrl'),
      TEST_DATABASE_PREFIX: inject('postgresDatabasePrefix'),
    });
    const output = vitest.stdout + vitest.stderr;
    expect(vitest.signal, output).toBeNull();
    expect(output).toMatch(/Test Files\s+2 passed/);
    expect(vitest.status).toBe(0);
  });

  it('npm run generate again changes nothing, and never overwrites a scaffolded file someone has edited', () => {
    appendFileSync(join(copy, SCAFFOLD[0]!), '// being written\n');
    const files = [...SCAFFOLD, 'src/handlers/index.ts', 'generated/contract.ts', 'generated/tables.ts'];
    const before = files.map(read);
    const again = generate();
    expect(again.stderr).toMatch(/^wrote nothing; unchanged: /);
    expect(again.stderr).not.toContain('scaffolded');
    expect(files.map(read)).toEqual(before);
    expect(read(SCAFFOLD[0]!)).toContain('// being written');
  });
});
