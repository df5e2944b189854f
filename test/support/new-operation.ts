import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { PACKAGE_ROOT } from '../../src/package-root.js';

interface Ruleset {
  rules: Record<string, { then: { function: string; functionOptions?: { responses: Record<string, string> } } }>;
}

/**
 * The shared error responses .spectral.yaml's house rules require (each status with the name of its
 * component), read from the ruleset: a new operation with a body documents them all, and 404.
 */
const ERROR_RESPONSES: Record<string, string> = Object.fromEntries([
  ['404', 'NotFound'],
  ...Object.values((load(readFileSync(join(PACKAGE_ROOT, '.spectral.yaml'), 'utf8')) as Ruleset).rules)
    .filter(({ then }) => then.function === 'required-responses')
    .flatMap(({ then }) => Object.entries(then.functionOptions!.responses)),
]);

/**
 * openapi.yaml with an operation added, as a user would write it: `PUT /pets/{petId}` (replacePet),
 * described, with examples, documenting the shared error responses but those in `without`.
 */
export function withReplacePet(spec: string, { without = [] }: { without?: string[] } = {}): string {
  const errors = Object.entries(ERROR_RESPONSES)
    .filter(([status]) => !without.includes(status))
    .map(([status, name]) => `        '${status}':\n          $ref: '#/components/responses/${name}'\n`);
  const operation = `    put:
      operationId: replacePet
      tags: [animals]
      summary: Replace an animal
      description: Replaces every field of an animal but its \`id\`.
      parameters:
        - name: petId
          in: path
          required: true
          description: Identifier of the animal.
          schema:
            $ref: '#/components/schemas/PetId'
          example: 1
      requestBody:
        required: true
        description: The animal's new fields.
        content:
          application/json:
            schema:
              $ref: '#/components/schemas/NewPet'
            examples:
              sold:
                summary: A sold dog
                value: { name: Rex, categoryId: 3, status: sold }
      responses:
        '200':
          description: The animal as replaced.
          content:
            application/json:
              schema:
                $ref: '#/components/schemas/Pet'
              examples:
                sold:
                  summary: The replaced animal
                  value: { id: 1, name: Rex, categoryId: 3, status: sold }
${errors.join('')}`;
  const at = spec.indexOf('  /store/orders:\n');
  if (at === -1) throw new Error('openapi.yaml has no /store/orders path to add the operation before');
  return spec.slice(0, at) + operation + spec.slice(at);
}

/**
 * openapi.yaml with a stored resource and a read of it, as a user would write them: `Photo`, kept in
 * table `pet_photos` (`x-storage` on the schema), and `GET /pets/{petId}/photos` (listPetPhotos), which
 * returns a pet's photos from a storage query of its own (`x-storage: query`), documenting every
 * shared error response.
 */
export function withPetPhotos(spec: string): string {
  const errors = Object.entries(ERROR_RESPONSES)
    .filter(([status]) => status !== '413' && status !== '415')
    .map(([status, name]) => `        '${status}':\n          $ref: '#/components/responses/${name}'\n`);
  const operation = `  /pets/{petId}/photos:
    get:
      operationId: listPetPhotos
      tags: [animals]
      x-storage: query
      summary: List an animal's photos
      description: The photos of an animal, oldest first.
      parameters:
        - $ref: '#/components/parameters/PetIdPath'
      responses:
        '200':
          description: The animal's photos.
          content:
            application/json:
              schema:
                type: array
                items:
                  $ref: '#/components/schemas/Photo'
              examples:
                photos:
                  summary: One photo
                  value: [{ id: 1, petId: 1, url: 'https://example.com/rex.jpg', takenOn: '2024-01-31' }]
${errors.join('')}`;
  const schema = `    Photo:
      type: object
      description: A photo of an animal.
      required: [id, petId, url]
      additionalProperties: false
      x-storage:
        table: pet_photos
        key: id
        indexes: [[petId, id]]
      properties:
        id:
          type: integer
          minimum: 1
          description: The photo's identifier.
          examples: [1]
        petId:
          $ref: '#/components/schemas/PetId'
        url:
          type: string
          format: uri
          description: Where the photo is.
          examples: ['https://example.com/rex.jpg']
        takenOn:
          type: string
          format: date
          description: The day it was taken.
          examples: ['2024-01-31']
      examples:
        - id: 1
          petId: 1
          url: https://example.com/rex.jpg
          takenOn: '2024-01-31'
`;
  const path = spec.indexOf('  /store/orders:\n');
  const pets = spec.indexOf('    Pets:\n');
  if (path === -1 || pets === -1) throw new Error('openapi.yaml has no /store/orders path or Pets schema to add the photos before');
  return spec.slice(0, path) + operation + spec.slice(path, pets) + schema + spec.slice(pets);
}

/**
 * What is left to write by hand for listPetPhotos once `npm run generate` has run on withPetPhotos's
 * spec: its handler and its query on each backend, by their paths (docs/editing-the-spec.md).
 */
export const PET_PHOTOS_CODE: Record<string, string> = {
  'src/handlers/list-pet-photos.ts': `import { apiError } from '../errors/api-error.js';
import type { HandlerDeps } from './deps.js';
import type { OperationHandler } from './operation.js';

export function listPetPhotos({ storage }: Pick<HandlerDeps, 'storage'>): OperationHandler<'listPetPhotos'> {
  return async ({ path }) => {
    if (!(await storage.getPet(path.petId))) throw apiError('pet_not_found', { petId: path.petId });
    return { status: 200, body: await storage.operations.listPetPhotos({ path }) };
  };
}
`,
  'src/storage/sqlite/operations/list-pet-photos.ts': `import type Database from 'better-sqlite3';
import type { OperationQueries } from '../../../../generated/queries.js';
import { PHOTO_TABLE, photoFromRow, type PhotoRow } from '../../../../generated/tables.js';
import { selectList } from '../../stored-tables.js';

export function listPetPhotos(db: Database.Database): OperationQueries['listPetPhotos'] {
  const photos = db.prepare<[number], PhotoRow>(\`SELECT \${selectList(PHOTO_TABLE)} FROM pet_photos WHERE pet_id = ? ORDER BY id\`).raw();
  return ({ path }) => Promise.resolve(photos.all(path.petId).map(photoFromRow));
}
`,
  'src/storage/postgres/operations/list-pet-photos.ts': `import type { OperationQueries } from '../../../../generated/queries.js';
import { PHOTO_TABLE, photoFromRow, type PhotoRow } from '../../../../generated/tables.js';
import { selectList } from '../../stored-tables.js';
import type { Queries, Statement } from '../queries.js';

const PHOTOS: Statement = { name: 'list-pet-photos', text: \`SELECT \${selectList(PHOTO_TABLE)} FROM pet_photos WHERE pet_id = $1 ORDER BY id\` };

export function listPetPhotos(queries: Queries): OperationQueries['listPetPhotos'] {
  return async ({ path }) => (await queries.arrays<PhotoRow>(PHOTOS, [path.petId])).map(photoFromRow);
}
`,
};

/** The tests a user writes in place of the scaffolded ones for listPetPhotos, by their paths. */
export const PET_PHOTOS_TESTS: Record<string, string> = {
  'test/handlers/list-pet-photos.test.ts': `import { describe, expect, it } from 'vitest';
import { listPetPhotos } from '../../src/handlers/list-pet-photos.js';
import { operationRequest } from '../support/operation-request.js';
import { openTestStorage } from '../support/test-app.js';

describe('listPetPhotos handler', () => {
  it('raises pet_not_found for a pet there is not', async () => {
    const handler = listPetPhotos({ storage: await openTestStorage() });
    await expect(handler(operationRequest({ path: { petId: 404 } }))).rejects.toMatchObject({ code: 'pet_not_found' });
  });
});
`,
  'test/http/app/list-pet-photos.test.ts': `import { describe, expect, it } from 'vitest';
import { backends } from '../../support/backends.js';
import { createTestApi } from '../../support/test-app.js';

describe.each(backends)('listPetPhotos [$name]', (backend) => {
  it("answers a pet's photos, none yet, and 404 for a pet there is not", async () => {
    const t = await createTestApi({ backend });
    const created = await t.api.post('/v1/pets').set(t.auth).send({ name: 'Rex', categoryId: 3 }).expect(201);
    const res = await t.api.get(\`/v1/pets/\${created.body.id}/photos\`).set(t.auth).expect(200);
    expect(res.body).toEqual([]);
    await t.api.get('/v1/pets/404/photos').set(t.auth).expect(404);
  });
});
`,
  'test/storage/sqlite/operations/list-pet-photos.test.ts': `import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { migrateSqlite } from '../../../../src/storage/sqlite/migrate.js';
import { listPetPhotos } from '../../../../src/storage/sqlite/operations/list-pet-photos.js';

describe('listPetPhotos on sqlite', () => {
  it("reads a pet's photos in id order, a missing takenOn left out", async () => {
    const db = new Database(':memory:');
    await migrateSqlite(db);
    db.exec("INSERT INTO pet_photos (pet_id, url, taken_on) VALUES (1, 'https://example.com/a.jpg', '2024-01-31'), (2, 'https://example.com/b.jpg', NULL), (1, 'https://example.com/c.jpg', NULL)");
    expect(await listPetPhotos(db)({ path: { petId: 1 } })).toEqual([
      { id: 1, petId: 1, url: 'https://example.com/a.jpg', takenOn: '2024-01-31' },
      { id: 3, petId: 1, url: 'https://example.com/c.jpg' },
    ]);
  });
});
`,
  'test/storage/postgres/operations/list-pet-photos.test.ts': `import { describe, expect, it } from 'vitest';
import { migratePostgres } from '../../../../src/storage/postgres/migrate.js';
import { listPetPhotos } from '../../../../src/storage/postgres/operations/list-pet-photos.js';
import { createPool } from '../../../../src/storage/postgres/pool.js';
import { Queries } from '../../../../src/storage/postgres/queries.js';
import { postgresBackend } from '../../../support/backends.js';

describe('listPetPhotos on postgres', () => {
  it("reads a pet's photos in id order, a missing takenOn left out", async () => {
    // The backend's own pool: it reads bigint columns as numbers.
    const pool = createPool(await postgresBackend.createDatabaseUrl(), {});
    await migratePostgres(pool);
    await pool.query("INSERT INTO pet_photos (pet_id, url, taken_on) VALUES (1, 'https://example.com/a.jpg', '2024-01-31'), (2, 'https://example.com/b.jpg', NULL), (1, 'https://example.com/c.jpg', NULL)");
    try {
      expect(await listPetPhotos(new Queries(pool))({ path: { petId: 1 } })).toEqual([
        { id: 1, petId: 1, url: 'https://example.com/a.jpg', takenOn: '2024-01-31' },
        { id: 3, petId: 1, url: 'https://example.com/c.jpg' },
      ]);
    } finally {
      await pool.end();
    }
  });
});
`,
};
