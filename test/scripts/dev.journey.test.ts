import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { startDev, type DrivenDev } from '../../scripts/dev/drive.js';
import { copyProject, removeProjectCopy } from '../../scripts/project-copy.js';
import { PACKAGE_ROOT } from '../../src/package-root.js';
import { withReplacePet } from '../support/new-operation.js';

// npm run dev on a copy of the project, as a user runs it (type check and lint on), driven by
// saves. How fast it is: npm run dev:measure (docs/editing-the-spec.md), never asserted here.
// Every step waits on processes (the server, the type check, the lint) that a busy machine slows.
describe('npm run dev (scripts/dev.ts)', { timeout: 180_000 }, () => {
  let copy: string;
  let dev: DrivenDev;
  const path = (file: string) => join(copy, file);
  const read = (file: string) => readFileSync(path(file), 'utf8');
  /** Saves a file, and returns the line number from which what npm run dev prints is about the save. */
  const save = (file: string, text: string) => {
    const from = dev.lines.length;
    writeFileSync(path(file), text);
    return from;
  };
  const createPet = async (name: string) => {
    const res = await fetch(`${dev.baseUrl}/pets`, {
      method: 'POST',
      headers: { Authorization: dev.authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, categoryId: 1 }),
    });
    return { status: res.status, body: (await res.json()) as { message?: string; id?: number } };
  };
  const publishedNameLimit = async () =>
    ((await (await fetch(new URL('/openapi.json', dev.baseUrl))).json()) as { components: { schemas: { PetName: { maxLength: number } } } })
      .components.schemas.PetName.maxLength;
  const notFoundMessage = async () =>
    ((await (await fetch(`${dev.baseUrl}/nothing`, { headers: { Authorization: dev.authorization } })).json()) as { message: string })
      .message;
  const setNameLimit = (limit: number) =>
    save('openapi.yaml', read('openapi.yaml').replace(/(PetName:\n(?: {6}.*\n)*? {6}maxLength: )\d+/, `$1${limit}`));

  beforeAll(async () => {
    copy = copyProject();
    dev = await startDev(copy);
  }, 180_000);
  beforeEach(({ onTestFailed }) => {
    const from = dev.lines.length;
    onTestFailed(() => void process.stderr.write(`npm run dev printed, during the test:\n${dev.lines.slice(from).join('\n')}\n`));
  });
  afterAll(async () => {
    await dev?.stop();
    removeProjectCopy(copy);
  });

  it('serves the new contract after a spec save: /openapi.json and validation both', async () => {
    expect((await createPet('N'.repeat(45))).status).toBe(201);
    const from = setNameLimit(40);
    await dev.waitForLine(/^\[dev\] serving /, from);
    expect(await publishedNameLimit()).toBe(40);
    const refused = await createPet('N'.repeat(45));
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain('body.name must NOT have more than 40 characters');
    expect((await createPet('N'.repeat(40))).status).toBe(201);
    // The server restarted once, on the new contract.
    expect(dev.lines.slice(from).filter((line) => line.includes('"msg":"listening"'))).toHaveLength(1);
  });

  it('keeps the last good server running on a spec that cannot be served, and prints why with file and line', async () => {
    const limit = await publishedNameLimit();
    const good = read('openapi.yaml');
    const lines = good.split('\n');
    const at = lines.indexOf('      operationId: listPets') + 1;
    const from = save('openapi.yaml', lines.toSpliced(at, 0, '     summary: one space short').join('\n'));
    await dev.waitForLine(/^\[dev\] openapi\.yaml cannot be served; the last good server keeps running:$/, from);
    expect(await dev.waitForLine(/^ {2}openapi\.yaml:\d+:\d+: /, from)).toMatch(
      new RegExp(`^ {2}openapi\\.yaml:${at + 1}:\\d+: bad indentation of a mapping entry`),
    );
    expect(await publishedNameLimit()).toBe(limit);
    expect(dev.lines.slice(from).some((line) => line.includes('"msg":"shutting down: draining"'))).toBe(false);
    await dev.waitForLine(/^\[dev\] serving /, save('openapi.yaml', good));
  });

  it('keeps the last good server on every kind of save while the spec cannot be served, saying why; the first valid save serves them all', async () => {
    const limit = await publishedNameLimit();
    const good = read('openapi.yaml');
    const first = save(
      'openapi.yaml',
      good.replace('      operationId: listPets\n', '      operationId: listPets\n     summary: one space short\n'),
    );
    await dev.waitForLine(/^\[dev\] openapi\.yaml cannot be served; the last good server keeps running:$/, first);
    const registry = read('src/errors/registry.ts');
    const generated = read('generated/contract.ts');
    const edits: Array<[file: string, text: string]> = [
      ['src/errors/registry.ts', registry.replace('`No operation at ${method} ${path}.`', '`No route at ${method} ${path}.`')],
      ['src/handlers/get-pet.ts', `${read('src/handlers/get-pet.ts')}// saved while the spec is broken\n`],
      ['generated/contract.ts', `${generated}// saved by hand\n`],
    ];
    for (const [file, text] of edits) {
      const from = save(file, text);
      const escaped = file.replaceAll('.', '\\.').replaceAll('/', '\\/');
      await dev.waitForLine(
        new RegExp(`^\\[dev\\] ${escaped} saved, not served: openapi\\.yaml cannot be served; the last good server keeps running:$`),
        from,
      );
      expect(await dev.waitForLine(/^ {2}openapi\.yaml:\d+:\d+: /, from)).toMatch(/bad indentation of a mapping entry/);
      expect(await notFoundMessage()).toBe('No operation at GET /v1/nothing.');
    }
    expect(await publishedNameLimit()).toBe(limit);
    // No server started on it. (One may have tried, and failed, when the save came while a cycle
    // was between its check and its start: the last good server is kept then too.)
    expect(dev.lines.slice(first).filter((line) => /"msg":"listening"|^\[dev\] serving /.test(line))).toEqual([]);
    await dev.waitForLine(/^\[dev\] serving /, save('openapi.yaml', good));
    expect(await notFoundMessage()).toBe('No route at GET /v1/nothing.');
    // The hand edit of generated/ is written over by the spec's own.
    expect(read('generated/contract.ts')).toBe(generated);
    await dev.waitForLine(/^\[dev\] serving /, save('src/errors/registry.ts', registry));
  });

  it('keeps the last good server when the new one cannot start, and says so', async () => {
    const registry = read('src/errors/registry.ts');
    const from = save('src/errors/registry.ts', `${registry}throw new Error('a module that does not load');\n`);
    await dev.waitForLine(/Error: a module that does not load$/, from);
    await dev.waitForLine(
      /^\[dev\] the new server stopped before listening \(1\), see above; the last good server keeps running: fix and save$/,
      from,
    );
    expect(await notFoundMessage()).toBe('No operation at GET /v1/nothing.');
    await dev.waitForLine(/^\[dev\] serving /, save('src/errors/registry.ts', registry));
  });

  it('restarts on a src/ save, serving the new code; the type check reports its errors without holding the restart back', async () => {
    const registry = read('src/errors/registry.ts');
    const edited = registry.replace('`No operation at ${method} ${path}.`', '`Nothing at ${method} ${path}.`');
    expect(edited).not.toBe(registry);
    const lines = `${edited}export const typeCheckProbe: number = 'not a number';\n`;
    const from = save('src/errors/registry.ts', lines);
    await dev.waitForLine(/^\[dev\] serving /, from);
    const res = await fetch(`${dev.baseUrl}/nothing`, { headers: { Authorization: dev.authorization } });
    expect(await res.json()).toEqual({ code: 'route_not_found', status: 404, message: 'Nothing at GET /v1/nothing.' });
    const probeLine = lines.split('\n').length - 1;
    await dev.waitForLine(new RegExp(`^\\[typecheck\\] src/errors/registry\\.ts\\(${probeLine},\\d+\\): error TS2322: `), from);
    await dev.waitForLine(/^\[dev\] serving /, save('src/errors/registry.ts', registry));
  });

  it('answers 500 for a handler answer the spec forbids, naming the operation and the status; the type check names the line', async () => {
    const { body: pet } = await createPet('Rex');
    const handler = read('src/handlers/get-pet.ts');
    const ok = /^ {2}return \{ status: 200, body: found\.pet, headers: .*$/m;
    expect(handler).toMatch(ok);
    const edited = handler.replace(ok, '  return { status: 418, body: found.pet };');
    const from = save('src/handlers/get-pet.ts', edited);
    await dev.waitForLine(/^\[dev\] serving /, from);
    const id = pet.id!;
    const res = await fetch(`${dev.baseUrl}/pets/${id}`, { headers: { Authorization: dev.authorization } });
    expect(res.status).toBe(500);
    const { message } = (await res.json()) as { message: string };
    expect(message).toMatch(/^getPet answered 418, which openapi\.yaml does not allow .*status 418 is not documented for getPet/);
    await dev.waitForLine(
      new RegExp(
        `^\\[response check\\] getPet answered 418, which openapi\\.yaml does not allow; sent 500 instead: GET /v1/pets/${id} → 418: `,
      ),
      from,
    );
    const line = edited.split('\n').findIndex((text) => text.includes('status: 418')) + 1;
    await dev.waitForLine(new RegExp(`^\\[typecheck\\] src/handlers/get-pet\\.ts\\(${line},\\d+\\): error TS\\d+: `), from);
    await dev.waitForLine(/^\[dev\] serving /, save('src/handlers/get-pet.ts', handler));
    expect((await fetch(`${dev.baseUrl}/pets/${id}`, { headers: { Authorization: dev.authorization } })).status).toBe(200);
  });

  it('scaffolds a new operation on a spec save and serves it with 501 at once; the lint names what it lacks', async () => {
    const from = save('openapi.yaml', withReplacePet(read('openapi.yaml'), { without: ['413'] }));
    const scaffolded = await dev.waitForLine(/^\[dev\] scaffolded, answering 501 until written: src\/handlers\/replace-pet\.ts, /, from);
    await dev.waitForLine(/^\[dev\] serving /, dev.lines.indexOf(scaffolded, from));
    const res = await fetch(`${dev.baseUrl}/pets/1`, {
      method: 'PUT',
      headers: { Authorization: dev.authorization, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 3 }),
    });
    expect(res.status).toBe(501);
    expect(await res.json()).toEqual({ code: 'not_implemented', status: 501, message: 'PUT /v1/pets/{petId} is not implemented yet.' });
    await dev.waitForLine(
      /^\[lint\] .*openapi\.yaml:\d+:\d+ error operation-body-responses "PUT \/pets\/\{petId\} does not document 413 \(it takes a request body\): add '413': \{ \$ref: '#\/components\/responses\/PayloadTooLarge' \} to its responses"/,
      from,
    );
  });

  it('keeps the last good server while a new column has no migration, naming it; npm run generate writes it and the save is served', async () => {
    const withNickname = parseDocument(read('openapi.yaml'));
    for (const schema of ['Pet', 'NewPet']) {
      withNickname.setIn(['components', 'schemas', schema, 'properties', 'nickname'], {
        type: 'string',
        maxLength: 40,
        description: 'What the staff call the animal.',
        examples: ['Rexy'],
      });
    }
    const nickname = (body: string) =>
      fetch(`${dev.baseUrl}/pets`, {
        method: 'POST',
        headers: { Authorization: dev.authorization, 'Content-Type': 'application/json' },
        body,
      });
    const from = save('openapi.yaml', withNickname.toString());
    expect(await dev.waitForLine(/^petstore-api failed to start: /, from)).toBe(
      'petstore-api failed to start: table pets has no column for Pet.nickname and NewPet.nickname (column "nickname" TEXT) of openapi.yaml: ' +
        'add it in a new migration in src/storage/sqlite/migrations.ts (`npm run generate` writes it; docs/adding-a-field.md)',
    );
    await dev.waitForLine(
      /^\[dev\] the new server stopped before listening \(1\), see above; the last good server keeps running: fix and save$/,
      from,
    );
    // The last good contract, whole: the field is not one of its own yet.
    const old = await nickname('{"name":"Rex","categoryId":3,"nickname":"Rexy"}');
    expect(old.status).toBe(400);
    expect(((await old.json()) as { message: string }).message).toContain('nickname');
    const beforeGenerate = dev.lines.length;
    const generate = spawnSync(process.execPath, ['node_modules/tsx/dist/cli.mjs', 'scripts/generate.ts'], { cwd: copy, encoding: 'utf8' });
    expect(generate.stderr).toMatch(
      /new migrations \(review them, then commit\):\n {2}src\/storage\/sqlite\/migrations\.ts: version \d+, "add pets\.nickname"/,
    );
    await dev.waitForLine(/^\[dev\] serving /, beforeGenerate);
    const created = await nickname('{"name":"Rex","categoryId":3,"nickname":"Rexy"}');
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ name: 'Rex', nickname: 'Rexy' });
  });

  // Last: the lines are those the tests above made it print.
  it('has printed each [dev] line docs/editing-the-spec.md shows, figures and addresses aside', () => {
    const shown = readFileSync(join(PACKAGE_ROOT, 'docs', 'editing-the-spec.md'), 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('[dev] '));
    expect(shown.length).toBeGreaterThan(2);
    const pattern = (line: string) =>
      new RegExp(
        `^${line
          .split(/(https?:\/\/\S+?(?=:? )|\d+(?:\.\d+)?)/)
          .map((part, index) =>
            index % 2 === 1 ? (part.startsWith('http') ? '\\S+?' : '\\d+(?:\\.\\d+)?') : part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'),
          )
          .join('')}$`,
      );
    expect(shown.filter((line) => !dev.lines.some((printed) => pattern(line).test(printed)))).toEqual([]);
  });
});
