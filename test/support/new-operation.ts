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
