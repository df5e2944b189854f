// What `npm run generate` writes for an operation marked `x-storage: query` in openapi.yaml, an
// operation whose answer comes from a storage query of its own:
// - generated/queries.ts: OperationQueries, the query's signature (the operation's parameters in,
//   its 2xx body out), which Storage offers as `storage.operations`;
// - src/storage/{sqlite,postgres}/operations/index.ts: each backend's queries by operationId
//   (rewritten from the spec every time, like src/handlers/index.ts);
// - once, where no file is (orval's 'smart' mode): each backend's query, rejecting with
//   QueryNotWrittenError (answered 501 not_implemented) until it is written, and its test.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { listOperations, resolveRef, type OpenApiDocument, type OperationEntry } from '../../src/contract/spec.js';
import { CRUD_KINDS } from './resources.js';
import { kebabCase, type FileText } from './scaffold.js';

const HERE = 'scripts/generate/storage-scaffold.ts';

interface Backend {
  name: 'sqlite' | 'postgres';
  /** What makes the queries: its type, and the module it comes from. */
  handle: { type: string; name: string; import: string };
  factory: string;
}

const BACKENDS: readonly Backend[] = [
  {
    name: 'sqlite',
    handle: { type: 'Database.Database', name: 'db', import: "import type Database from 'better-sqlite3';" },
    factory: 'sqliteOperations',
  },
  {
    name: 'postgres',
    handle: { type: 'Queries', name: 'queries', import: "import type { Queries } from '../queries.js';" },
    factory: 'postgresOperations',
  },
];

/** The operations marked `x-storage: query`, in the spec's order. */
export function storedOperations(document: OpenApiDocument): OperationEntry[] {
  return listOperations(document).filter(({ operation }) => {
    const marker = operation['x-storage'];
    if (marker === undefined) return false;
    const kind = typeof marker === 'object' && marker !== null ? (marker as { operation?: unknown }).operation : marker;
    if (CRUD_KINDS.includes(kind as (typeof CRUD_KINDS)[number])) return false;
    if (marker !== 'query')
      throw new Error(`${operation.operationId}: x-storage on an operation is \`query\` or one of ${CRUD_KINDS.join(', ')} (${HERE})`);
    return true;
  });
}

/** Where a backend's query of an operation is. */
export function queryPath(backend: Backend['name'], operationId: string): string {
  return `src/storage/${backend}/operations/${kebabCase(operationId)}.ts`;
}

/** The body type of the operation's first 2xx JSON response: what its query resolves to. */
function resultType(document: OpenApiDocument, { operation }: OperationEntry): string {
  const id = JSON.stringify(operation.operationId);
  for (const [status, response] of Object.entries(operation.responses as Record<string, object>)) {
    if (!/^2\d\d$/.test(status)) continue;
    const resolved = resolveRef(document, response) as { content?: Record<string, unknown> };
    if (resolved.content?.['application/json']) return `operations[${id}]['responses'][${status}]['content']['application/json']`;
  }
  return 'void';
}

/** generated/queries.ts, before formatting. */
export function queriesModule(document: OpenApiDocument, header: string): string {
  const entries = storedOperations(document);
  const methods = entries.map((entry) => {
    const id = entry.operation.operationId;
    return `  /** ${entry.method.toUpperCase()} ${entry.path} */\n  ${id}(parameters: operations[${JSON.stringify(id)}]['parameters']): Promise<${resultType(document, entry)}>;`;
  });
  const doc = `/**
 * The storage query of each operation marked \`x-storage: query\`: the operation's parameters in,
 * what its 2xx response carries out. Each backend implements it in
 * src/storage/<backend>/operations/<operationId in kebab case>.ts.
 */`;
  const queries = entries.length
    ? `import type { operations } from './openapi.js';\n\n${doc}\nexport interface OperationQueries {\n${methods.join('\n')}\n}`
    : `${doc}\nexport type OperationQueries = Record<never, never>;`;
  return `${header}${queries}

/** The operations that have a storage query, by operationId. */
export const QUERY_OPERATIONS = [${entries.map(({ operation }) => JSON.stringify(operation.operationId)).join(', ')}] as const;
`;
}

/** src/storage/<backend>/operations/index.ts: every query of the backend, by operationId. */
export function operationsIndexModules(document: OpenApiDocument, header: string): FileText[] {
  const ids = storedOperations(document).map(({ operation }) => operation.operationId);
  return BACKENDS.map(({ name, handle, factory }) => ({
    path: `src/storage/${name}/operations/index.ts`,
    text: `${header}// Each operation marked \`x-storage: query\` has its query in ./<operationId in kebab case>.ts,
// exporting a function named after the operationId that makes the query; \`npm run generate\` writes
// one that rejects with QueryNotWrittenError (answered 501) for an operation that has none.
${handle.import}
import type { OperationQueries } from '../../../../generated/queries.js';
${ids.map((id) => `import { ${id} } from './${kebabCase(id)}.js';`).join('\n')}

/** The queries of the operations marked \`x-storage: query\`, on this backend. */
export function ${factory}(${ids.length ? handle.name : `_${handle.name}`}: ${handle.type}): OperationQueries {
  return {
${ids.map((id) => `    ${id}: ${id}(${handle.name}),`).join('\n')}
  };
}
`,
  }));
}

function queryStub({ handle }: Backend, path: string, { method, path: route, operation: { operationId: id } }: OperationEntry): string {
  return `${handle.import}
import type { OperationQueries } from '../../../../generated/queries.js';
import { QueryNotWrittenError } from '../../storage.js';

/**
 * The storage query of ${id} (${method.toUpperCase()} ${route}), as \`npm run generate\` scaffolded it:
 * rejects with QueryNotWrittenError, which the server answers with 501 not_implemented, until it is
 * written. Prepare its statements here, once; the returned function runs them. The table and the row
 * mapper of an \`x-storage\` schema are in generated/tables.ts, its columns as a select list from
 * selectList (src/storage/stored-tables.ts).
 */
export function ${id}(_${handle.name}: ${handle.type}): OperationQueries['${id}'] {
  return () => Promise.reject(new QueryNotWrittenError('${id}', '${path}'));
}
`;
}

function queryTest(backend: Backend, path: string, { operation: { operationId: id } }: OperationEntry): string {
  const open =
    backend.name === 'sqlite'
      ? `import Database from 'better-sqlite3';\n`
      : `import { Queries } from '../../../../src/storage/postgres/queries.js';\nimport { postgresBackend } from '../../../support/backends.js';\nimport { testPool } from '../../../support/postgres-storage.js';\n`;
  const handle =
    backend.name === 'sqlite' ? `new Database(':memory:')` : `new Queries(testPool(await postgresBackend.createDatabaseUrl()))`;
  return `${open}import { describe, expect, it } from 'vitest';
import { ${id} } from '../../../../${path.replace(/\.ts$/, '.js')}';

// Scaffolded by \`npm run generate\` with the query: replace it with the query's own tests.
describe('${id} on ${backend.name}', () => {
  it('is not written yet: rejects with QueryNotWrittenError, naming the file to write', async () => {
    const query = ${id}(${handle});
    await expect(query({} as Parameters<typeof query>[0])).rejects.toMatchObject({ name: 'QueryNotWrittenError', operationId: '${id}', file: '${path}' });
  });
});
`;
}

/** For each operation marked `x-storage: query` without its query on a backend: the query, answering 501, and its test. */
export function storageScaffoldFiles(document: OpenApiDocument, root: string): FileText[] {
  return storedOperations(document).flatMap((entry) =>
    BACKENDS.flatMap((backend) => {
      const path = queryPath(backend.name, entry.operation.operationId);
      if (existsSync(join(root, path))) return [];
      return [
        { path, text: queryStub(backend, path, entry) },
        { path: path.replace(/^src\//, 'test/').replace(/\.ts$/, '.test.ts'), text: queryTest(backend, path, entry) },
      ];
    }),
  );
}
