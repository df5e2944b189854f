import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDocument } from 'yaml';
import { copyProject, removeProjectCopy } from '../../scripts/project-copy.js';
import { postgresBackend, sqliteBackend, type Backend } from '../support/backends.js';
import { snapshot } from '../support/project-files.js';
import { startServer } from '../support/processes.js';

/**
 * A third stored resource, a pet's vaccinations, added as docs/adding-a-resource.md says, on a copy of
 * the project: openapi.yaml, its business rules (src/rules/vaccination.ts) and the messages of its
 * three error codes are the only hand edits; `npm run generate` writes the rest; the copy type-checks
 * and serves its create, get, list, update and delete on both backends.
 */

const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
const SHARED = {
  '400': ref('BadRequest'),
  '401': ref('Unauthorized'),
  '429': ref('TooManyRequests'),
  '500': ref('InternalError'),
  '503': ref('ServiceUnavailable'),
};
const schema = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const VACCINATION = { id: 1, petId: 1, vaccine: 'rabies', givenOn: '2030-01-10' };
const ID_PATH = {
  name: 'vaccinationId',
  in: 'path',
  required: true,
  description: 'Identifier of the vaccination.',
  schema: schema('PetId'),
  example: 1,
};

/** openapi.yaml with the vaccinations: schemas, error codes and four operations, marked x-storage. */
function withVaccinations(spec: string): string {
  const document = parseDocument(spec);
  const body = (description: string, name: string, example: object) => ({
    description,
    content: { 'application/json': { schema: schema(name), examples: { one: { summary: description, value: example } } } },
  });
  document.setIn(['components', 'schemas', 'NewVaccination'], {
    type: 'object',
    description: 'A vaccination to record.',
    required: ['petId', 'vaccine', 'givenOn'],
    additionalProperties: false,
    properties: {
      petId: schema('PetId'),
      vaccine: { type: 'string', minLength: 1, maxLength: 50, description: 'The vaccine given.', examples: ['rabies'] },
      givenOn: { type: 'string', format: 'date', description: 'The day it was given.', examples: ['2030-01-10'] },
    },
    examples: [{ petId: 1, vaccine: 'rabies', givenOn: '2030-01-10' }],
  });
  document.setIn(['components', 'schemas', 'Vaccination'], {
    type: 'object',
    description: 'A vaccination an animal was given.',
    required: ['id', 'petId', 'vaccine', 'givenOn'],
    additionalProperties: false,
    'x-storage': {
      table: 'vaccinations',
      key: 'id',
      written: 'NewVaccination',
      patched: 'VaccinationPatch',
      notFound: 'vaccination_not_found',
      versioned: true,
      preconditionFailed: 'precondition_failed',
      references: [{ property: 'petId', schema: 'Pet', onDelete: 'cascade', error: 'vaccination_pet_not_found' }],
    },
    properties: {
      id: { ...schema('PetId'), description: 'Identifier of the vaccination.' },
      petId: schema('PetId'),
      vaccine: { type: 'string', minLength: 1, maxLength: 50, description: 'The vaccine given.', examples: ['rabies'] },
      givenOn: { type: 'string', format: 'date', description: 'The day it was given.', examples: ['2030-01-10'] },
    },
    examples: [VACCINATION],
  });
  document.setIn(['components', 'schemas', 'VaccinationPatch'], {
    type: 'object',
    description: 'A merge patch of a vaccination: the fields to correct.',
    additionalProperties: false,
    properties: {
      vaccine: { type: 'string', minLength: 1, maxLength: 50, description: 'The vaccine given.', examples: ['rabies'] },
      givenOn: { type: 'string', format: 'date', description: 'The day it was given.', examples: ['2030-01-10'] },
    },
    examples: [{ vaccine: 'rabies' }],
  });
  document.setIn(['components', 'schemas', 'Vaccinations'], {
    type: 'array',
    description: 'A page of vaccinations.',
    items: schema('Vaccination'),
    examples: [[VACCINATION]],
  });
  const codes = document.getIn(['components', 'schemas', 'ErrorCode', 'oneOf']) as { add(value: unknown): void };
  for (const [code, status, description] of [
    ['vaccination_not_found', 404, 'No vaccination has the requested identifier.'],
    ['vaccination_pet_not_found', 422, 'The vaccination names an animal the catalogue does not have.'],
    ['vaccination_in_future', 422, 'The vaccination is dated after today.'],
  ] as const)
    codes.add(document.createNode({ const: code, description, 'x-http-status': status }));
  const common = [{ $ref: '#/components/parameters/RequestId' }];
  const tag = { ETag: { required: true, description: "The vaccination's strong entity-tag.", schema: { type: 'string' } } };
  const ifMatch = {
    name: 'If-Match',
    in: 'header',
    required: false,
    description: "Only while the vaccination's ETag is one of these; otherwise 412 and nothing changes.",
    schema: { type: 'string' },
    example: '"1-1"',
  };
  document.setIn(['paths', '/vaccinations'], {
    get: {
      operationId: 'listVaccinations',
      tags: ['animals'],
      summary: 'List vaccinations',
      description: 'A page of vaccinations in id order, optionally of one animal.',
      'x-storage': 'list',
      parameters: [
        { $ref: '#/components/parameters/Limit' },
        { $ref: '#/components/parameters/Cursor' },
        { name: 'petId', in: 'query', required: false, description: 'Only those of this animal.', schema: schema('PetId'), example: 1 },
        ...common,
      ],
      responses: {
        '200': {
          ...body('A page of vaccinations.', 'Vaccinations', [VACCINATION]),
          headers: { Link: { $ref: '#/components/headers/NextPageLink' } },
        },
        ...SHARED,
      },
    },
    post: {
      operationId: 'createVaccination',
      tags: ['animals'],
      summary: 'Record a vaccination',
      description: 'Records a vaccination of an animal that exists, given today or earlier.',
      'x-storage': 'create',
      parameters: [...common, { $ref: '#/components/parameters/IdempotencyKey' }],
      requestBody: {
        required: true,
        ...body('The vaccination.', 'NewVaccination', { petId: 1, vaccine: 'rabies', givenOn: '2030-01-10' }),
      },
      responses: {
        '201': {
          ...body('The vaccination, recorded.', 'Vaccination', VACCINATION),
          headers: {
            Location: {
              description: 'Path of the vaccination.',
              required: true,
              schema: { type: 'string', examples: ['/v1/vaccinations/1'] },
            },
            ...tag,
          },
        },
        '409': ref('IdempotencyKeyInProgress'),
        '413': ref('PayloadTooLarge'),
        '415': ref('UnsupportedMediaType'),
        '422': ref('Unprocessable'),
        ...SHARED,
      },
    },
  });
  document.setIn(['paths', '/vaccinations/{vaccinationId}'], {
    get: {
      operationId: 'getVaccination',
      tags: ['animals'],
      summary: 'Get a vaccination',
      description: 'One vaccination.',
      'x-storage': 'get',
      parameters: [ID_PATH, ...common],
      responses: {
        '200': { ...body('The vaccination.', 'Vaccination', VACCINATION), headers: tag },
        '404': ref('NotFound'),
        ...SHARED,
      },
    },
    patch: {
      operationId: 'updateVaccination',
      tags: ['animals'],
      summary: 'Correct a vaccination',
      description: 'Changes the fields sent of a vaccination.',
      'x-storage': 'update',
      parameters: [ID_PATH, ifMatch, ...common],
      requestBody: { required: true, ...body('The fields to change.', 'VaccinationPatch', { vaccine: 'rabies' }) },
      responses: {
        '200': { ...body('The vaccination as it is now.', 'Vaccination', VACCINATION), headers: tag },
        '404': ref('NotFound'),
        '412': ref('PreconditionFailed'),
        '413': ref('PayloadTooLarge'),
        '415': ref('UnsupportedMediaType'),
        ...SHARED,
      },
    },
    delete: {
      operationId: 'deleteVaccination',
      tags: ['animals'],
      summary: 'Remove a vaccination',
      description: 'Removes a vaccination recorded by mistake.',
      'x-storage': { operation: 'delete', schema: 'Vaccination' },
      parameters: [ID_PATH, ifMatch, ...common],
      responses: { '204': { description: 'Removed.' }, '404': ref('NotFound'), '412': ref('PreconditionFailed'), ...SHARED },
    },
  });
  return document.toString();
}

/** The hand-written business rules: no vaccination dated after today (UTC). */
const RULES = `import type { components } from '../../generated/openapi.js';
import { apiError } from '../errors/api-error.js';
import type { ResourceRules } from '../handlers/resource-rules.js';

export const rules: ResourceRules<components['schemas']['NewVaccination']> = {
  beforeCreate(vaccination, { now }) {
    if (vaccination.givenOn > now.toISOString().slice(0, 10)) throw apiError('vaccination_in_future', { givenOn: vaccination.givenOn });
    return vaccination;
  },
};
`;

/** The messages of the three new error codes, in src/errors/document-messages.ts. */
const MESSAGES = `  vaccination_not_found: ({ vaccinationId }: { vaccinationId: number }) => \`No vaccination with id \${vaccinationId}.\`,
  vaccination_pet_not_found: ({ petId }: { petId: number }) => \`No pet with id \${petId} to vaccinate.\`,
  vaccination_in_future: ({ givenOn }: { givenOn: string }) => \`givenOn \${givenOn} is after today.\`,
`;

const nonBlankLines = (text: string) => text.split('\n').filter((line) => line.trim() !== '').length;

// A generator run, a type check of the whole project and two servers from source: minutes on a busy machine.
describe('a resource with writes added from the spec and its rules alone (on a copy of the project)', { timeout: 300_000 }, () => {
  let copy: string;
  let before: Map<string, string>;
  const run = (args: string[]) =>
    spawnSync(process.execPath, args, {
      cwd: copy,
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
      timeout: 240_000,
      killSignal: 'SIGKILL',
    });

  beforeAll(() => {
    copy = copyProject();
    before = snapshot(copy);
    const at = (file: string) => join(copy, file);
    writeFileSync(at('openapi.yaml'), withVaccinations(readFileSync(at('openapi.yaml'), 'utf8')));
    writeFileSync(at('src/rules/vaccination.ts'), RULES);
    const registry = readFileSync(at('src/errors/document-messages.ts'), 'utf8');
    const anchor = registry.indexOf('  pet_not_found:');
    writeFileSync(at('src/errors/document-messages.ts'), registry.slice(0, anchor) + MESSAGES + registry.slice(anchor));
  });
  afterAll(() => removeProjectCopy(copy));

  it('npm run generate writes the handlers, the table and its migrations; the copy type-checks; the hand edits are few', () => {
    const generated = run(['node_modules/tsx/dist/cli.mjs', 'scripts/generate.ts']);
    expect(generated.status, generated.stderr).toBe(0);
    expect(generated.stderr).toContain('create vaccinations');
    const changed = [...snapshot(copy)].filter(([path, text]) => before.get(path) !== text).map(([path]) => path);
    const handWritten = ['openapi.yaml', 'src/errors/document-messages.ts', 'src/rules/vaccination.ts'];
    expect(changed.filter((path) => !handWritten.includes(path)).sort()).toEqual([
      'generated/contract.ts',
      'generated/handlers/create-vaccination.ts',
      'generated/handlers/delete-vaccination.ts',
      'generated/handlers/get-vaccination.ts',
      'generated/handlers/list-vaccinations.ts',
      'generated/handlers/update-vaccination.ts',
      'generated/openapi.d.ts',
      'generated/tables.ts',
      'src/handlers/index.ts',
      'src/storage/postgres/migrations.ts',
      'src/storage/sqlite/migrations.ts',
    ]);
    expect(readFileSync(join(copy, 'src/storage/sqlite/migrations.ts'), 'utf8')).toContain(
      'CONSTRAINT "vaccinations_pet_id_fkey" REFERENCES "pets" ("id") ON DELETE CASCADE',
    );
    // Beyond openapi.yaml: the rules file and the three messages.
    expect(nonBlankLines(RULES) + nonBlankLines(MESSAGES)).toBe(12);
    const typecheck = run(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.json']);
    expect(typecheck.stdout).toBe('');
    expect(typecheck.status).toBe(0);
  });

  it.each([sqliteBackend, postgresBackend])(
    'serves its create, get, list, update and delete over HTTP [$name]',
    async (backend: Backend) => {
      const server = await startServer(
        { DATABASE_URL: await backend.createDatabaseUrl() },
        { cwd: copy, args: ['--import', 'tsx', 'src/main.ts'] },
      );
      try {
        const key = server.output.map((line) => /^\s+(psk_\S+)$/.exec(line)?.[1]).find(Boolean);
        const headers = { Authorization: `Bearer ${key}`, 'Content-Type': 'application/json' };
        const send = async (method: string, path: string, body?: object, extra: Record<string, string> = {}) => {
          const res = await fetch(`${server.baseUrl}${path}`, {
            method,
            headers: { ...headers, ...extra },
            ...(body && { body: JSON.stringify(body) }),
          });
          return {
            status: res.status,
            etag: res.headers.get('ETag'),
            location: res.headers.get('Location'),
            link: res.headers.get('Link'),
            replayed: res.headers.get('Idempotent-Replayed'),
            body: res.status === 204 || res.status === 304 ? undefined : await res.json(),
          };
        };
        expect((await send('POST', '/pets', { name: 'Rex', categoryId: 3 })).status).toBe(201);
        expect((await send('POST', '/pets', { name: 'Tom', categoryId: 4 })).status).toBe(201);

        const created = await send('POST', '/vaccinations', { petId: 1, vaccine: 'rabies', givenOn: '2020-01-10' });
        expect(created).toMatchObject({
          status: 201,
          location: '/v1/vaccinations/1',
          etag: '"1-1"',
          body: { id: 1, petId: 1, vaccine: 'rabies', givenOn: '2020-01-10' },
        });
        await send('POST', '/vaccinations', { petId: 2, vaccine: 'distemper', givenOn: '2020-02-01' });
        await send('POST', '/vaccinations', { petId: 1, vaccine: 'parvovirus', givenOn: '2020-03-01' });
        expect(await send('GET', '/vaccinations/1')).toMatchObject({ status: 200, etag: '"1-1"', body: created.body });

        const page = await send('GET', '/vaccinations?limit=2');
        expect((page.body as { id: number }[]).map(({ id }) => id)).toEqual([1, 2]);
        expect(page.link).toMatch(/^<\/v1\/vaccinations\?limit=2&cursor=[\w-]+>; rel="next"$/);
        const ofRex = await send('GET', '/vaccinations?petId=1');
        expect((ofRex.body as { id: number }[]).map(({ id }) => id)).toEqual([1, 3]);

        expect(await send('POST', '/vaccinations', { petId: 9, vaccine: 'rabies', givenOn: '2020-01-10' })).toMatchObject({
          status: 422,
          body: { code: 'vaccination_pet_not_found', message: 'No pet with id 9 to vaccinate.' },
        });
        expect(await send('POST', '/vaccinations', { petId: 1, vaccine: 'rabies', givenOn: '2999-01-01' })).toMatchObject({
          status: 422,
          body: { code: 'vaccination_in_future' },
        });
        expect((await send('POST', '/vaccinations', { petId: 1, vaccine: 'rabies', givenOn: '2020-02-30' })).status).toBe(400);

        // The ETag: If-Match writes only at a version it lists, and every change raises the version.
        expect(await send('PATCH', '/vaccinations/3', { vaccine: 'x' }, { 'If-Match': '"3-2"' })).toMatchObject({
          status: 412,
          body: { code: 'precondition_failed' },
        });
        expect(await send('PATCH', '/vaccinations/3', { vaccine: 'parvovirus booster' }, { 'If-Match': '"3-1"' })).toMatchObject({
          status: 200,
          etag: '"3-2"',
          body: { id: 3, petId: 1, vaccine: 'parvovirus booster', givenOn: '2020-03-01' },
        });
        expect((await send('GET', '/vaccinations/3')).body).toMatchObject({ vaccine: 'parvovirus booster' });
        expect(await send('PATCH', '/vaccinations/3', {})).toMatchObject({ etag: '"3-2"', body: { vaccine: 'parvovirus booster' } });
        expect((await send('GET', '/vaccinations/3', undefined, { 'If-None-Match': '"3-2"' })).status).toBe(304);
        expect(await send('PATCH', '/vaccinations/9', { vaccine: 'x' })).toMatchObject({
          status: 404,
          body: { code: 'vaccination_not_found' },
        });

        expect((await send('DELETE', '/vaccinations/1', undefined, { 'If-Match': '"1-2"' })).status).toBe(412);
        expect((await send('DELETE', '/vaccinations/1', undefined, { 'If-Match': '"1-1"' })).status).toBe(204);
        expect(await send('GET', '/vaccinations/1')).toMatchObject({ status: 404, body: { code: 'vaccination_not_found' } });
        expect((await send('DELETE', '/vaccinations/1')).status).toBe(404);
        // The pet's delete takes its vaccinations with it.
        expect((await send('DELETE', '/pets/1')).status).toBe(204);
        expect((await send('GET', '/vaccinations/3')).status).toBe(404);
        expect((await send('GET', '/vaccinations')).body).toEqual([{ id: 2, petId: 2, vaccine: 'distemper', givenOn: '2020-02-01' }]);

        // An Idempotency-Key: the response is recorded with the row and replayed; another body, or a
        // key first used on createPet, is refused and creates nothing.
        const keyed = { 'Idempotency-Key': '"v-1"' };
        const first = await send('POST', '/vaccinations', { petId: 2, vaccine: 'rabies', givenOn: '2020-04-01' }, keyed);
        expect(first).toMatchObject({ status: 201, replayed: null, body: { petId: 2, vaccine: 'rabies' } });
        const retry = await send('POST', '/vaccinations', { givenOn: '2020-04-01', vaccine: 'rabies', petId: 2 }, keyed);
        expect(retry).toEqual({ ...first, replayed: 'true' });
        expect(await send('POST', '/vaccinations', { petId: 2, vaccine: 'distemper', givenOn: '2020-04-01' }, keyed)).toMatchObject({
          status: 422,
          body: { code: 'idempotency_key_reused' },
        });
        const petKey = { 'Idempotency-Key': '"p-1"' };
        expect((await send('POST', '/pets', { name: 'Kit', categoryId: 1 }, petKey)).status).toBe(201);
        expect(await send('POST', '/vaccinations', { petId: 2, vaccine: 'rabies', givenOn: '2020-04-01' }, petKey)).toMatchObject({
          status: 422,
          body: { code: 'idempotency_key_reused' },
        });
        expect(((await send('GET', '/vaccinations')).body as unknown[]).length).toBe(2);
      } finally {
        await server.stop();
      }
    },
  );
});
