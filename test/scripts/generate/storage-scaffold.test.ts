import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  operationsIndexModules,
  queriesModule,
  queryPath,
  storageScaffoldFiles,
  storedOperations,
} from '../../../scripts/generate/storage-scaffold.js';
import { parseSpec, readSpecText } from '../../../src/contract/spec.js';
import { withPetPhotos } from '../../support/new-operation.js';

const photos = parseSpec(withPetPhotos(readSpecText()));

describe('what npm run generate writes for an operation marked x-storage: query (scripts/generate/storage-scaffold.ts)', () => {
  let root: string;
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'petstore-storage-scaffold-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('types its query: the operation’s parameters in, its 2xx body out', () => {
    expect(storedOperations(photos).map(({ operation }) => operation.operationId)).toEqual(['listPetPhotos']);
    // Before formatting: operationIds as JSON strings.
    const module = queriesModule(photos, '');
    expect(module).toContain(
      `listPetPhotos(parameters: operations["listPetPhotos"]['parameters']): Promise<operations["listPetPhotos"]['responses'][200]['content']['application/json']>;`,
    );
    expect(module).toContain('export const QUERY_OPERATIONS = ["listPetPhotos"] as const;');
    expect(queriesModule(parseSpec(readSpecText()), '')).toContain('export type OperationQueries = Record<never, never>;');
  });

  it('registers it on each backend', () => {
    const [sqlite, postgres] = operationsIndexModules(photos, '');
    expect(sqlite!.path).toBe('src/storage/sqlite/operations/index.ts');
    expect(sqlite!.text).toContain('listPetPhotos: listPetPhotos(db),');
    expect(postgres!.path).toBe('src/storage/postgres/operations/index.ts');
    expect(postgres!.text).toContain('listPetPhotos: listPetPhotos(queries),');
  });

  it('scaffolds its query and the query’s test on each backend, only where no file is', () => {
    const paths = () => storageScaffoldFiles(photos, root).map(({ path }) => path);
    expect(paths()).toEqual([
      'src/storage/sqlite/operations/list-pet-photos.ts',
      'test/storage/sqlite/operations/list-pet-photos.test.ts',
      'src/storage/postgres/operations/list-pet-photos.ts',
      'test/storage/postgres/operations/list-pet-photos.test.ts',
    ]);
    const written = join(root, queryPath('sqlite', 'listPetPhotos'));
    mkdirSync(dirname(written), { recursive: true });
    writeFileSync(written, '// being written\n');
    expect(paths()).toEqual([
      'src/storage/postgres/operations/list-pet-photos.ts',
      'test/storage/postgres/operations/list-pet-photos.test.ts',
    ]);
    const [stub] = storageScaffoldFiles(photos, root);
    expect(stub!.text).toContain(
      "return () => Promise.reject(new QueryNotWrittenError('listPetPhotos', 'src/storage/postgres/operations/list-pet-photos.ts'));",
    );
  });

  it('refuses an x-storage on an operation that is not `query`', () => {
    const document = parseSpec(withPetPhotos(readSpecText()).replace('x-storage: query', 'x-storage: table'));
    expect(() => storedOperations(document)).toThrow('listPetPhotos: x-storage on an operation is `query`');
  });
});
