import { spawnSync } from 'node:child_process';
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { parseDocument } from 'yaml';
import { copyProject, removeProjectCopy } from '../../scripts/project-copy.js';
import { postgresMigrations } from '../../src/storage/postgres/migrations.js';
import { sqliteMigrations } from '../../src/storage/sqlite/migrations.js';
import { postgresBackend, sqliteBackend } from '../support/backends.js';
import { snapshot } from '../support/project-files.js';
import { PET_PHOTOS_CODE, PET_PHOTOS_TESTS, withPetPhotos, withReplacePet } from '../support/new-operation.js';
import { startServer, tempDatabaseUrl } from '../support/processes.js';

/**
 * The first edits a user makes, replayed on one copy of the project by following docs/: an optional
 * `birthDate` on Pet, NewPet and PetPatch (docs/adding-a-field.md), a new operation,
 * `PUT /pets/{petId}`, and a new read of a new stored resource, `GET /pets/{petId}/photos`
 * (docs/editing-the-spec.md). Each step's check fails where the docs say, naming the fix; once the
 * hand edits the docs list are made (and only those), the field is kept on both backends and the
 * operations are served.
 */

/** openapi.yaml with `birthDate` on Pet, NewPet and PetPatch, the photos, and replacePet documenting all but `without`'s error responses. */
function editedSpec(spec: string, without: string[] = []): string {
  const document = parseDocument(spec);
  for (const schema of ['Pet', 'NewPet', 'PetPatch']) {
    document.setIn(['components', 'schemas', schema, 'properties', 'birthDate'], {
      type: 'string',
      format: 'date',
      description: 'The day the animal was born.',
      examples: ['2020-05-17'],
    });
  }
  return withPetPhotos(withReplacePet(document.toString(), { without }));
}

/** The files `after` adds or changes against `before`. */
function changed(before: Map<string, string>, after: Map<string, string>): string[] {
  return [...after]
    .filter(([path, text]) => before.get(path) !== text)
    .map(([path]) => path)
    .sort();
}

/** The version numbers docs/adding-a-field.md's example migrations carry, in its order (SQLite's, then PostgreSQL's). */
function documentedVersions(): number[] {
  return [...readFileSync('docs/adding-a-field.md', 'utf8').matchAll(/^ *version: (\d+),$/gm)].map(([, version]) => Number(version));
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
      storage.createPet({ name: 'Rex', categoryId: 3, birthDate: '2020-02-29' }),
      storage.createPet({ name: 'Tom', categoryId: 4 }),
      storage.createPet({ name: 'Kit', categoryId: 5, status: 'sold', birthDate: '2021-12-31' }),
    ]);
    const { id: accountId } = await storage.ensureAccount('probe');
    const now = new Date();
    let responded;
    await storage.createPetIdempotently(
      { name: 'Max', categoryId: 6, birthDate: '2019-07-04' },
      { accountId, key: 'k', fingerprint: 'f', now, expiresAt: new Date(now.getTime() + 60_000) },
      (pet) => ((responded = pet), { status: 201, headers: {}, body: new Uint8Array() }),
    );
    const read = await Promise.all(created.map(async (pet) => (await storage.getPet(pet.id)).pet));
    const updated = [
      await storage.updatePet(created[1].id, { birthDate: '2018-01-01' }),
      await storage.updatePet(created[0].id, { categoryId: 7 }),
      await storage.updatePet(created[2].id, { birthDate: null }),
    ];
    const page = await storage.listPets({ limit: 10 });
    const sold = await storage.listPets({ limit: 10, status: 'sold' });
    const photos = await storage.operations.listPetPhotos({ path: { petId: created[0].id } });
    report[backend] = { created, responded, read, updated, page, sold, photos };
  } catch (error) {
    report[backend] = { error: error.message };
  } finally {
    await storage?.close();
  }
}
process.stdout.write(JSON.stringify(report));
`;

const SCAFFOLD = ['src/handlers/replace-pet.ts', 'test/handlers/replace-pet.test.ts', 'test/http/app/replace-pet.test.ts'];
const PHOTOS_SCAFFOLD = [
  'src/handlers/list-pet-photos.ts',
  'test/handlers/list-pet-photos.test.ts',
  'test/http/app/list-pet-photos.test.ts',
  'src/storage/sqlite/operations/list-pet-photos.ts',
  'test/storage/sqlite/operations/list-pet-photos.test.ts',
  'src/storage/postgres/operations/list-pet-photos.ts',
  'test/storage/postgres/operations/list-pet-photos.test.ts',
];
/** What npm run generate rewrites from the spec, outside the scaffolds and the migrations. */
const GENERATED = [
  'generated/contract.ts',
  'generated/openapi.d.ts',
  'generated/queries.ts',
  'generated/tables.ts',
  'src/handlers/index.ts',
  'src/storage/postgres/operations/index.ts',
  'src/storage/sqlite/operations/index.ts',
];
const MIGRATIONS = ['src/storage/postgres/migrations.ts', 'src/storage/sqlite/migrations.ts'];

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
  let original: Map<string, string>;
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
    original = snapshot(copy);
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

  it('npm run generate scaffolds the operations and writes the migrations, at the versions the doc shows; typecheck then passes', () => {
    writeFileSync(join(copy, 'openapi.yaml'), editedSpec(spec));
    const generated = generate();
    expect(generated.stderr).toContain(`scaffolded (answering 501 until written): ${[...SCAFFOLD, ...PHOTOS_SCAFFOLD].join(', ')}`);
    const sqliteVersion = Math.max(...sqliteMigrations.map((m) => m.version)) + 1;
    const postgresVersion = Math.max(...postgresMigrations.map((m) => m.version)) + 1;
    expect(generated.stderr).toContain(
      `new migrations (review them, then commit):\n` +
        `  src/storage/sqlite/migrations.ts: version ${sqliteVersion}, "add pets.birth_date; create pet_photos"\n` +
        `  src/storage/postgres/migrations.ts: version ${postgresVersion}, "add pets.birth_date; create pet_photos"\n`,
    );
    expect(generated.status).toBe(0);
    // docs/adding-a-field.md's examples carry the versions a field added now gets.
    expect(documentedVersions(), 'docs/adding-a-field.md').toEqual([sqliteVersion, postgresVersion]);
    // The spec is the one hand edit: everything else is generated or scaffolded.
    expect(changed(original, snapshot(copy))).toEqual(
      ['openapi.yaml', ...GENERATED, ...MIGRATIONS, ...SCAFFOLD, ...PHOTOS_SCAFFOLD].sort(),
    );
    expect(read('src/handlers/index.ts')).toContain('replacePet: replacePet(deps),');
    expect(read('generated/tables.ts')).toContain("property: 'birthDate', column: 'birth_date'");
    expect(read('src/storage/sqlite/migrations.ts')).toContain('ALTER TABLE "pets" ADD COLUMN "birth_date" TEXT;');
    const typecheck = node(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);
    expect(typecheck.stdout).toBe('');
    expect(typecheck.status).toBe(0);
  });

  it('answers listPetPhotos 501, naming the operation, until its query is written', async () => {
    // The handler, written first, reaches the query that is still the scaffold's.
    writeFileSync(join(copy, 'src/handlers/list-pet-photos.ts'), PET_PHOTOS_CODE['src/handlers/list-pet-photos.ts']!);
    const server = await startServer({ DATABASE_URL: tempDatabaseUrl() }, { cwd: copy, args: ['--import', 'tsx', 'src/main.ts'] });
    try {
      const key = server.output.map((line) => /^\s+(psk_\S+)$/.exec(line)?.[1]).find(Boolean);
      const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
      const created = await fetch(`${server.baseUrl}/pets`, { method: 'POST', headers, body: '{"name":"Rex","categoryId":3}' });
      expect(created.status).toBe(201);
      const stub = await fetch(`${server.baseUrl}/pets/1/photos`, { headers });
      expect(stub.status).toBe(501);
      expect(await stub.json()).toEqual({
        code: 'not_implemented',
        status: 501,
        message: 'GET /v1/pets/{petId}/photos is not implemented yet.',
      });
    } finally {
      await server.stop();
    }
  });

  it('round-trips the field through every way storage writes and reads pets on both backends, once the read is written', () => {
    // The hand edits of the new read: its handler, its query on each backend, and their tests.
    for (const [file, text] of Object.entries({ ...PET_PHOTOS_CODE, ...PET_PHOTOS_TESTS })) writeFileSync(join(copy, file), text);
    expect(changed(original, snapshot(copy)).filter((file) => !GENERATED.includes(file) && !MIGRATIONS.includes(file))).toEqual(
      ['openapi.yaml', ...SCAFFOLD, ...PHOTOS_SCAFFOLD].sort(),
    );
    const typecheck = node(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);
    expect(typecheck.stdout).toBe('');
    expect(typecheck.status).toBe(0);
    const persisted = probe();
    const rex = { id: 1, name: 'Rex', categoryId: 3, birthDate: '2020-02-29' };
    const tom = { id: 2, name: 'Tom', categoryId: 4 };
    const kit = { id: 3, name: 'Kit', categoryId: 5, status: 'sold', birthDate: '2021-12-31' };
    const max = { id: 4, name: 'Max', categoryId: 6, birthDate: '2019-07-04' };
    for (const backend of Object.keys(databases)) {
      expect(persisted[backend], backend).toEqual({
        created: [rex, tom, kit],
        responded: max,
        read: [rex, tom, kit],
        updated: [
          { kind: 'updated', pet: { pet: { ...tom, birthDate: '2018-01-01' }, version: 2 } },
          { kind: 'updated', pet: { pet: { ...rex, categoryId: 7 }, version: 2 } },
          { kind: 'updated', pet: { pet: { id: 3, name: 'Kit', categoryId: 5, status: 'sold' }, version: 2 } },
        ],
        page: [{ ...rex, categoryId: 7 }, { ...tom, birthDate: '2018-01-01' }, { id: 3, name: 'Kit', categoryId: 5, status: 'sold' }, max],
        sold: [{ id: 3, name: 'Kit', categoryId: 5, status: 'sold' }],
        photos: [],
      });
    }
  });

  it.each(['sqlite', 'postgres'])(
    'serves them on %s: createPet keeps the birth date, the photos are read, replacePet is validated and answers 501',
    async (backend) => {
      const url = backend === 'sqlite' ? tempDatabaseUrl() : await postgresBackend.createDatabaseUrl();
      const server = await startServer({ DATABASE_URL: url }, { cwd: copy, args: ['--import', 'tsx', 'src/main.ts'] });
      try {
        const key = server.output.map((line) => /^\s+(psk_\S+)$/.exec(line)?.[1]).find(Boolean);
        const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
        const created = await fetch(`${server.baseUrl}/pets`, {
          method: 'POST',
          headers,
          body: '{"name":"Rex","categoryId":3,"birthDate":"2020-02-29"}',
        });
        expect(created.status).toBe(201);
        expect(await created.json()).toEqual({ id: 1, name: 'Rex', categoryId: 3, birthDate: '2020-02-29' });
        const read = await fetch(`${server.baseUrl}/pets?limit=5`, { headers });
        expect(await read.json()).toEqual([{ id: 1, name: 'Rex', categoryId: 3, birthDate: '2020-02-29' }]);
        const photos = await fetch(`${server.baseUrl}/pets/1/photos`, { headers });
        expect(photos.status).toBe(200);
        expect(await photos.json()).toEqual([]);

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
        expect(await invalid.json()).toEqual({
          code: 'validation_failed',
          status: 400,
          message: 'Invalid request: body.name is required.',
        });
        const published = (await (await fetch(new URL('/openapi.json', server.baseUrl))).json()) as { paths: Record<string, object> };
        expect(published.paths['/pets/{petId}']).toHaveProperty('put.operationId', 'replacePet');
      } finally {
        await server.stop();
      }
    },
  );

  it('scaffolds tests that pass, and the tests of the new read pass', () => {
    // The copy's own vitest, on the scaffolded files only, with the PostgreSQL server and database
    // prefix of this run (its global setup then starts none, and leaves the clean-up to this run) and
    // without the build of dist/ they do not use.
    writeFileSync(
      join(copy, 'vitest.scaffold.config.ts'),
      `import base from './vitest.config.ts';
export default { ...base, test: { ...base.test, globalSetup: ['test/support/postgres-global-setup.ts'] } };
`,
    );
    const tests = [...SCAFFOLD.slice(1), ...Object.keys(PET_PHOTOS_TESTS)];
    const vitest = node(['node_modules/vitest/vitest.mjs', 'run', '--config', 'vitest.scaffold.config.ts', ...tests], {
      TEST_DATABASE_URL: inject('postgresAdminUrl'),
      TEST_DATABASE_PREFIX: inject('postgresDatabasePrefix'),
    });
    const output = vitest.stdout + vitest.stderr;
    expect(vitest.signal, output).toBeNull();
    expect(output).toMatch(new RegExp(`Test Files\\s+${tests.length} passed`));
    expect(vitest.status).toBe(0);
  });

  it('npm run generate again changes nothing, and never overwrites a scaffolded file someone has edited', () => {
    appendFileSync(join(copy, SCAFFOLD[0]!), '// being written\n');
    const files = [...SCAFFOLD, ...PHOTOS_SCAFFOLD, ...GENERATED, ...MIGRATIONS];
    const before = files.map(read);
    const again = generate();
    expect(again.stderr).toMatch(/^wrote nothing; unchanged: /);
    expect(again.stderr).not.toContain('scaffolded');
    expect(files.map(read)).toEqual(before);
    expect(read(SCAFFOLD[0]!)).toContain('// being written');
  });
});
