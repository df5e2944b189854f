// What `npm run generate` writes for an operation marked with a CRUD `x-storage` (create, get, list,
// update, delete) in openapi.yaml: its handler, whole, in generated/handlers/<operationId in kebab case>.ts,
// over the generic resource store (src/storage/resources.ts) and the table's row type and mappers
// (generated/tables.ts); and, once, where no file is (orval's 'smart' mode), the schema's business
// rules, src/rules/<schema in kebab case>.ts, which the team owns and the handlers call.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { listOperations, resolveRef, type OpenApiDocument, type OperationEntry, type SchemaObject } from '../../src/contract/spec.js';
import { kebabCase, type FileText } from './scaffold.js';
import { columnsOf, foreignKeys, persistedSchemas, restrictingKeys, type PersistedSchemas } from './tables.js';

const HERE = 'scripts/generate/resources.ts';

export const CRUD_KINDS = ['create', 'get', 'list', 'update', 'delete'] as const;
type CrudKind = (typeof CRUD_KINDS)[number];

/** An operation whose storage and handler are generated. */
export interface CrudOperation {
  entry: OperationEntry;
  kind: CrudKind;
  persisted: PersistedSchemas;
  /** Path parameters the rows do not depend on (x-storage's unscoped). */
  unscoped?: string[];
}

interface Parameter {
  name: string;
  in: string;
}

interface Response {
  headers?: Record<string, { required?: boolean }>;
  content?: Record<string, { schema?: SchemaObject }>;
}

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

/** The request header a create is made idempotent with (draft-ietf-httpapi-idempotency-key-header). */
const IDEMPOTENCY_KEY = 'idempotency-key';

/** The request header a versioned row's update or delete is made conditional with (RFC 9110 §13.1.1). */
const IF_MATCH = 'if-match';

function headerParameter(document: OpenApiDocument, entry: OperationEntry, lowerCaseName: string): Parameter | undefined {
  return parametersOf(document, entry).find(({ name, in: where }) => where === 'header' && name.toLowerCase() === lowerCaseName);
}

/** The component schema a body names ($ref), or its items' for an array. */
function schemaNamed(document: OpenApiDocument, schema: SchemaObject | undefined): string | undefined {
  if (!schema) return undefined;
  const ref = (schema as { $ref?: string }).$ref;
  const resolved = resolveRef(document, schema);
  if (resolved['type'] === 'array') return schemaNamed(document, resolved['items'] as SchemaObject | undefined);
  return ref === undefined ? undefined : SCHEMA_REF.exec(ref)?.[1];
}

function responseOf(document: OpenApiDocument, { operation }: OperationEntry, status: string): Response | undefined {
  const response = (operation.responses as Record<string, Response>)[status];
  return response && resolveRef(document, response);
}

/** An operation's parameters, its path item's included (the operation's own win: OpenAPI 3, Path Item Object). */
function parametersOf(document: OpenApiDocument, { operation, pathParameters }: OperationEntry): Parameter[] {
  const own = ((operation.parameters as Parameter[] | undefined) ?? []).map((parameter) => resolveRef(document, parameter));
  const shared = (pathParameters as Parameter[]).map((parameter) => resolveRef(document, parameter));
  return [...shared.filter((parameter) => !own.some(({ name, in: where }) => name === parameter.name && where === parameter.in)), ...own];
}

/** `x-storage: <kind>`, or `{ operation: <kind>, schema: <stored schema> }` where no body names it. */
function markerOf(entry: OperationEntry): Marker | undefined {
  const marker = entry.operation['x-storage'];
  const kind = typeof marker === 'object' && marker !== null ? (marker as { operation?: unknown }).operation : marker;
  if (!CRUD_KINDS.includes(kind as CrudKind)) return undefined;
  const { schema, unscoped } = (typeof marker === 'object' ? marker : {}) as { schema?: unknown; unscoped?: unknown };
  if (unscoped !== undefined && !(Array.isArray(unscoped) && unscoped.every((name) => typeof name === 'string')))
    throw new Error(`${entry.operation.operationId}: x-storage's unscoped is a list of path parameters (${HERE})`);
  return { kind: kind as CrudKind, ...(typeof schema === 'string' && { schema }), ...(unscoped && { unscoped: unscoped }) };
}

/** An operation's x-storage. */
interface Marker {
  kind: CrudKind;
  /** The stored schema it works on, where no answer names it. */
  schema?: string;
  /**
   * Path parameters the rows do not depend on (a parent's, as in /servers/{server_id}/keys/{key_id}):
   * every value of them names the same rows. The user says so; otherwise a path parameter other than a
   * row's key is refused, since storing nothing of it would answer every parent alike.
   */
  unscoped?: string[];
}

/** The component schema an operation's success answer (a create's 201, else 200) names, if any. */
function answeredSchema(document: OpenApiDocument, entry: OperationEntry, kind: CrudKind): string | undefined {
  const answer = (kind === 'create' ? responseOf(document, entry, '201') : undefined) ?? responseOf(document, entry, '200');
  return schemaNamed(document, answer?.content?.['application/json']?.schema);
}

/**
 * The operations marked `x-storage: create | get | list | update | delete`, with the stored schema each
 * works on: the one its x-storage names, else the one its answer names, else (a delete) the one
 * another marked operation of the same path answers with.
 */
export function crudOperations(document: OpenApiDocument): CrudOperation[] {
  const persisted = persistedSchemas(document);
  const marked = listOperations(document).flatMap((entry) => {
    const marker = markerOf(entry);
    return marker ? [{ entry, marker, named: marker.schema ?? answeredSchema(document, entry, marker.kind) }] : [];
  });
  const operations = marked.flatMap(({ entry, marker, named: answered }): CrudOperation[] => {
    const id = entry.operation.operationId;
    // An answer without a body (a delete's) works on the schema another marked operation of its path answers with.
    const named = answered ?? marked.find((other) => other.entry.path === entry.path && other.named !== undefined)?.named;
    if (!named)
      throw new Error(
        `${id}: x-storage ${marker.kind} needs its schema: { operation: ${marker.kind}, schema: <a schema marked x-storage> } (${HERE})`,
      );
    const stored = persisted.find(({ read }) => read === named);
    if (!stored) throw new Error(`${id}: x-storage ${marker.kind} works on ${named}, which is not stored: mark it x-storage (${HERE})`);
    // A header the generated handler would not honour is refused rather than served and ignored.
    const keyHeader = headerParameter(document, entry, IDEMPOTENCY_KEY);
    if (keyHeader && marker.kind !== 'create')
      throw new Error(`${id}: only a generated create honours ${keyHeader.name}: drop it, or the operation's x-storage (${HERE})`);
    if (headerParameter(document, entry, IF_MATCH) && !stored.versioned)
      throw new Error(
        `${id}: If-Match compares ${named}'s versions: mark its x-storage versioned: true (and give preconditionFailed, its 412 error code) (${HERE})`,
      );
    if ((marker.kind === 'list' || marker.kind === 'create') && scopedPathParameters(document, entry, marker.unscoped).length > 0)
      throw new Error(
        `${id}: x-storage ${marker.kind} stores nothing of its path parameters: name them in x-storage's unscoped, ` +
          `if every value of them names the same rows (${HERE})`,
      );
    return [{ entry, kind: marker.kind, persisted: stored, ...(marker.unscoped && { unscoped: marker.unscoped }) }];
  });
  // Only the generic store converts booleans and JSON, and tells a required NULL from an absent one:
  // a schema whose storage is hand-written (no generated operation works on it: pets) keeps to the rest.
  for (const stored of persisted) {
    if (operations.some(({ persisted: target }) => target.read === stored.read)) continue;
    const column = columnsOf(document, stored).find(({ type, nullable }) => type === 'boolean' || type === 'json' || nullable);
    if (column)
      throw new Error(
        `${stored.read}.${column.property} is ${column.nullable ? 'nullable' : `a ${column.type}`}, which only the generic store keeps, ` +
          `and no operation marked x-storage create, get, list, update or delete works on ${stored.read}: its storage is hand-written ` +
          `and binds strings, integers and numbers only. Mark its operations, or keep the property to those types (${HERE})`,
      );
  }
  // Only a generated delete answers a restricting reference's error: any other would answer 500.
  for (const owner of persisted) {
    for (const reference of owner.references ?? []) {
      if (reference.onDelete !== 'restrict') continue;
      if (!operations.some(({ kind, persisted: target }) => kind === 'delete' && target.read === reference.schema))
        throw new Error(
          `${owner.read}.${reference.property}: onDelete restrict answers ${reference.restrictError} from ${reference.schema}'s delete, ` +
            `which is not generated: mark it x-storage delete, or make the reference onDelete cascade (${HERE})`,
        );
    }
  }
  return operations;
}

const literal = (value: unknown) => JSON.stringify(value);
const upperSnake = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toUpperCase();
const lowerFirst = (name: string) => name[0]!.toLowerCase() + name.slice(1);

/** Where a stored schema's business rules are. */
export function rulesPath(schema: string): string {
  return `src/rules/${kebabCase(schema)}.ts`;
}

/** The one path parameter of a get or delete: it carries the key. */
function keyParameter(document: OpenApiDocument, { entry, kind, unscoped }: CrudOperation): string {
  const path = scopedPathParameters(document, entry, unscoped);
  if (path.length !== 1)
    throw new Error(
      `${entry.operation.operationId}: x-storage ${kind} takes the row's key from its one path parameter; ` +
        `name any other in x-storage's unscoped, if every value of it names the same rows (${HERE})`,
    );
  return path[0]!.name;
}

/** The path parameters of an operation that its x-storage does not call unscoped. */
function scopedPathParameters(document: OpenApiDocument, entry: OperationEntry, unscoped: readonly string[] = []): Parameter[] {
  return parametersOf(document, entry).filter((parameter) => parameter.in === 'path' && !unscoped.includes(parameter.name));
}

/**
 * The error a key that names no row raises: \`x-storage\`'s \`notFound\` code, given the key by its path
 * parameter's name; by default the stack's own not_found (404), which names the schema and the key.
 */
function notFound({ persisted }: CrudOperation, parameter: string, key: string): string {
  return persisted.notFound
    ? `apiError('${persisted.notFound}', { ${parameter === key ? key : `${literal(parameter)}: ${key}`} })`
    : `apiError('not_found', { resource: ${literal(persisted.read)}, key: String(${key}) })`;
}

/** The error code of notFound, for a handler's comment. */
function notFoundCode({ persisted }: CrudOperation): string {
  return persisted.notFound ?? 'not_found';
}

/**
 * How a handler on one row reads its key from its path parameter: as it is, or, where the key is a
 * number the path declares a string, converted (one that is no key names no row).
 */
function keyFromPath(
  document: OpenApiDocument,
  operation: CrudOperation,
  parameter: string,
): { path: string; key: string; convert: string; imports: string } {
  const keyColumn = columnsOf(document, operation.persisted).find(({ property }) => property === operation.persisted.key)!;
  const declared = parametersOf(document, operation.entry).find((candidate) => candidate.in === 'path' && candidate.name === parameter);
  const type = resolveRef(document, (declared as { schema?: SchemaObject } | undefined)?.schema ?? {})['type'];
  const identifier = /^[A-Za-z_$][\w$]*$/.test(parameter);
  const given = identifier ? parameter : 'given';
  const path = identifier ? `{ path: { ${parameter} }` : `{ path: { ${literal(parameter)}: given }`;
  if (keyColumn.type === 'string' || type === 'integer' || type === 'number') return { path, key: given, convert: '', imports: '' };
  return {
    path,
    key: 'key',
    convert: `const key = integerKey(${given});\n    if (key === undefined) throw ${notFound(operation, parameter, given)};\n    `,
    imports: "import { integerKey } from '../../src/handlers/row-key.js';\n",
  };
}

/** The first of the statuses the operation documents: what its generated handler answers. */
function documentedStatus(document: OpenApiDocument, operation: CrudOperation, statuses: readonly string[]): string {
  const status = statuses.find((candidate) => responseOf(document, operation.entry, candidate) !== undefined);
  if (!status)
    throw new Error(
      `${operation.entry.operation.operationId}: x-storage ${operation.kind} answers ${statuses.join(' or ')}: document one (${HERE})`,
    );
  return status;
}

function needs(operation: CrudOperation, document: OpenApiDocument, status: string): Response {
  const response = responseOf(document, operation.entry, status);
  if (!response)
    throw new Error(`${operation.entry.operation.operationId}: x-storage ${operation.kind} answers ${status}: document it (${HERE})`);
  return response;
}

function imports(operation: CrudOperation, extra: string[]): string {
  const { read } = operation.persisted;
  return [
    `import { ${upperSnake(read)}_TABLE, ${lowerFirst(read)}FromRow, type ${read}Row${extra.map((name) => `, ${name}`).join('')} } from '../tables.js';`,
  ].join('\n');
}

function listHandler(document: OpenApiDocument, operation: CrudOperation): string {
  const { entry, persisted } = operation;
  const id = entry.operation.operationId;
  const columns = columnsOf(document, persisted);
  const query = parametersOf(document, entry)
    .filter((parameter) => parameter.in === 'query')
    .map(({ name }) => name);
  const filters = query.filter((name) => name !== 'limit' && name !== 'cursor');
  for (const name of filters) {
    if (!columns.some((column) => column.read && column.property === name))
      throw new Error(`${id}: query parameter ${name} is neither limit, cursor nor a property of ${persisted.read} to filter on (${HERE})`);
  }
  if (!query.includes('limit')) return everyRowHandler(document, operation, filters);
  const key = columns.find(({ property }) => property === persisted.key)!;
  if (key.type !== 'integer')
    throw new Error(`${id}: x-storage list pages by an integer key; ${persisted.read}.${persisted.key} is not one (${HERE})`);
  const linked = needs(operation, document, '200').headers?.['Link'] !== undefined;
  const filterObject = filtersOf(filters);
  const cursor = query.includes('cursor');
  const nextPage = linked
    ? `return { status: 200, body: items, headers: { Link: nextPageLink(path, { limit, ...filters }, encodeCursor(items[limit - 1]!.${persisted.key})) } };`
    : 'return { status: 200, body: items };';
  const paging = [...(cursor ? ['decodeCursor'] : []), ...(linked ? ['encodeCursor', 'nextPageLink'] : [])];
  return `${paging.length ? `import { ${paging.join(', ')} } from '../../src/handlers/paging.js';\n` : ''}${linked ? "import { operationPath } from '../../src/handlers/links.js';\n" : ''}import type { HandlerDeps } from '../../src/handlers/deps.js';
import type { OperationHandler, OperationResult } from '../../src/handlers/operation.js';
${imports(operation, [])}

/** ${id}: a page of ${persisted.read} in key order, ${linked ? 'with a link to the next page exactly when there is one' : 'at most limit of them'}. */
export function ${id}(${linked ? "{ storage, basePath }: Pick<HandlerDeps, 'storage' | 'basePath'>" : "{ storage }: Pick<HandlerDeps, 'storage'>"}): OperationHandler<'${id}'> {
  ${linked ? `const path = operationPath(basePath, '${id}');` : ''}
  return ({ query }) => {
    const { limit } = query;
    const filters = ${filterObject};
    // One row more than asked tells whether a next page exists.
    const rows = storage.listRows<${persisted.read}Row>(${upperSnake(persisted.read)}_TABLE, {
      limit: limit + 1,
      ${cursor ? `...(query.cursor !== undefined && { afterKey: decodeCursor(query.cursor) }),` : ''}
      filters,
    });
    const page = (found: ${persisted.read}Row[]): OperationResult<'${id}'> => {
      const items = found.map(${lowerFirst(persisted.read)}FromRow);
      if (items.length <= limit) return { status: 200, body: items };
      items.length = limit;
      ${nextPage}
    };
    return rows instanceof Promise ? rows.then(page) : page(rows);
  };
}
`;
}

/**
 * A list whose operation declares no \`limit\`: the document pages nothing, so it answers every row (with
 * the filters given), in key order. A table that grows without bound wants a \`limit\` in the spec.
 */
function everyRowHandler(document: OpenApiDocument, operation: CrudOperation, filters: readonly string[]): string {
  const { entry, persisted } = operation;
  const id = entry.operation.operationId;
  needs(operation, document, '200');
  const filterObject = filtersOf(filters);
  return `import type { HandlerDeps } from '../../src/handlers/deps.js';
import type { OperationHandler, OperationResult } from '../../src/handlers/operation.js';
${imports(operation, [])}

/** ${id}: every ${persisted.read}${filters.length ? ' that matches the filters given' : ''}, in key order (the operation declares no limit). */
export function ${id}({ storage }: Pick<HandlerDeps, 'storage'>): OperationHandler<'${id}'> {
  const answer = (rows: ${persisted.read}Row[]): OperationResult<'${id}'> => ({ status: 200, body: rows.map(${lowerFirst(persisted.read)}FromRow) });
  return (${filters.length ? '{ query }' : ''}) => {
    const rows = storage.listRows<${persisted.read}Row>(${upperSnake(persisted.read)}_TABLE, { limit: Number.MAX_SAFE_INTEGER, filters: ${filterObject} });
    return rows instanceof Promise ? rows.then(answer) : answer(rows);
  };
}
`;
}

/** The filters of a list: each query parameter's value, by the property it filters on. */
function filtersOf(filters: readonly string[]): string {
  return filters.length ? `{ ${filters.map((name) => `${literal(name)}: query[${literal(name)}]`).join(', ')} }` : '{}';
}

/** What the handler of an operation on one row (get, delete) is written from, once its `status` is documented. */
function onOneRow(document: OpenApiDocument, operation: CrudOperation, status: string) {
  needs(operation, document, status);
  return { id: operation.entry.operation.operationId, parameter: keyParameter(document, operation), persisted: operation.persisted };
}

/** A versioned row's type: the read columns, then the version (src/storage/resource-sql.ts). */
function rowType(document: OpenApiDocument, persisted: PersistedSchemas): { type: string; version: string } {
  const reads = columnsOf(document, persisted).filter((column) => column.read).length;
  return persisted.versioned
    ? { type: `[...${persisted.read}Row, version: number]`, version: `row[${reads}]` }
    : { type: `${persisted.read}Row`, version: '' };
}

/** Whether the operation's answer (200, or a create's 201) declares an ETag: then a versioned row's answer carries its tag. */
function tagged(document: OpenApiDocument, operation: CrudOperation, status = '200'): boolean {
  const declared = needs(operation, document, status).headers?.['ETag'] !== undefined;
  if (declared && !operation.persisted.versioned)
    throw new Error(
      `${operation.entry.operation.operationId}: its ETag is a version of ${operation.persisted.read}'s row: mark its x-storage versioned: true (${HERE})`,
    );
  return declared;
}

/** `const expected = ...` of an update or delete that takes If-Match, and the refusal of a missed version. */
function ifMatch(
  document: OpenApiDocument,
  operation: CrudOperation,
  parameter: string,
): { expected: string; argument: string; refusal: string } {
  const header = headerParameter(document, operation.entry, IF_MATCH);
  if (!header) return { expected: '', argument: '', refusal: '' };
  needs(operation, document, '412');
  const code = operation.persisted.preconditionFailed;
  if (!code)
    throw new Error(
      `${operation.entry.operation.operationId}: If-Match answers 412 with ${operation.persisted.read}'s x-storage \`preconditionFailed\` error code: give one (${HERE})`,
    );
  return {
    expected: `const expected = expectedVersions(${parameter}, headers[${literal(header.name)}]);\n    `,
    argument: ', expected',
    refusal: `if (outcome.kind === 'precondition_failed') throw apiError('${code}', {});\n    `,
  };
}

function getHandler(document: OpenApiDocument, operation: CrudOperation): string {
  const { id, parameter, persisted } = onOneRow(document, operation, '200');
  const withTag = tagged(document, operation);
  const row = rowType(document, persisted);
  const key = keyFromPath(document, operation, parameter);
  return `import { apiError } from '../../src/errors/api-error.js';
import type { HandlerDeps } from '../../src/handlers/deps.js';
${withTag ? "import { rowETag } from '../../src/handlers/entity-tags.js';\n" : ''}import type { OperationHandler, OperationResult } from '../../src/handlers/operation.js';
${key.imports}${imports(operation, [])}

/** ${id}: one ${persisted.read} by its key${withTag ? ', with its ETag' : ''}, or ${notFoundCode(operation)}. */
export function ${id}({ storage }: Pick<HandlerDeps, 'storage'>): OperationHandler<'${id}'> {
  const answer = (${key.key}: ${keyType(document, persisted)}, row: ${row.type} | undefined): OperationResult<'${id}'> => {
    if (!row) throw ${notFound(operation, parameter, key.key)};
    return { status: 200, body: ${lowerFirst(persisted.read)}FromRow(row)${withTag ? `, headers: { ETag: rowETag(${key.key}, ${row.version}) }` : ''} };
  };
  // Without async: on a backend that answers at once, so does the handler.
  return (${key.path} }) => {
    ${key.convert}const row = storage.getRow<${row.type}>(${upperSnake(persisted.read)}_TABLE, ${key.key});
    return row instanceof Promise ? row.then((found) => answer(${key.key}, found)) : answer(${key.key}, row);
  };
}
`;
}

/** The TypeScript type of a table's key. */
function keyType(document: OpenApiDocument, persisted: PersistedSchemas): string {
  return columnsOf(document, persisted).find(({ property }) => property === persisted.key)!.type === 'string' ? 'string' : 'number';
}

function updateHandler(document: OpenApiDocument, operation: CrudOperation): string {
  const { id, parameter, persisted } = onOneRow(document, operation, '200');
  const { read, patched } = persisted;
  if (!patched || !columnsOf(document, persisted).some((column) => column.patched))
    throw new Error(
      `${id}: x-storage update applies ${read}'s x-storage \`patched\` schema, a merge patch of its properties: name one (${HERE})`,
    );
  const withTag = tagged(document, operation);
  const row = rowType(document, persisted);
  const condition = ifMatch(document, operation, parameter);
  const key = keyFromPath(document, operation, parameter);
  const tagImports = [...(condition.expected ? ['expectedVersions'] : []), ...(withTag ? ['rowETag'] : [])];
  return `import { apiError } from '../../src/errors/api-error.js';
import type { HandlerDeps } from '../../src/handlers/deps.js';
${tagImports.length ? `import { ${tagImports.join(', ')} } from '../../src/handlers/entity-tags.js';\n` : ''}import type { OperationHandler } from '../../src/handlers/operation.js';
${key.imports}${imports(operation, [`${lowerFirst(patched)}Values`])}

/**
 * ${id}: applies a merge patch (${patched}) to one ${read} and answers it as it is now${withTag ? ', with its new ETag' : ''}, or ${notFoundCode(operation)}.${
   condition.expected
     ? '\n * With If-Match, only while the row has a version it lists: the update compares and writes in one statement.'
     : ''
 }
 */
export function ${id}({ storage }: Pick<HandlerDeps, 'storage'>): OperationHandler<'${id}'> {
  return async (${key.path}${condition.expected ? ', headers' : ''}, body }) => {
    ${key.convert}${condition.expected}const outcome = await storage.updateRow<${row.type}>(${upperSnake(read)}_TABLE, ${key.key}, ${lowerFirst(patched)}Values(body)${condition.argument});
    if (outcome.kind ${condition.expected ? "=== 'not_found'" : "!== 'updated'"}) throw ${notFound(operation, parameter, key.key)};
    ${condition.refusal}const { row } = outcome;
    return { status: 200, body: ${lowerFirst(read)}FromRow(row)${withTag ? `, headers: { ETag: rowETag(${key.key}, ${row.version}) }` : ''} };
  };
}
`;
}

function deleteHandler(document: OpenApiDocument, operation: CrudOperation): string {
  const status = documentedStatus(document, operation, ['204', '200']);
  const { id, parameter, persisted } = onOneRow(document, operation, status);
  if (needs(operation, document, status).content !== undefined)
    throw new Error(`${id}: x-storage delete answers ${status} without a body, but the spec gives it content: drop the content (${HERE})`);
  const key = keyFromPath(document, operation, parameter);
  const restrictions = restrictingKeys(document, persisted, persistedSchemas(document));
  if (restrictions.length > 0) needs(operation, document, '409');
  const refusals = restrictions.map(
    ({ reference }) =>
      `if (outcome.constraint === ${literal(reference.constraint)}) throw apiError('${reference.restrictError!}', { ${parameter} });`,
  );
  const condition = ifMatch(document, operation, parameter);
  const restricted = refusals.length
    ? `if (outcome.kind === 'restricted') {
      ${refusals.join('\n      ')}
      throw new Error(\`\${outcome.constraint} refuses the delete\`);
    }
    `
    : '';
  return `import { apiError } from '../../src/errors/api-error.js';
import type { HandlerDeps } from '../../src/handlers/deps.js';
${condition.expected ? "import { expectedVersions } from '../../src/handlers/entity-tags.js';\n" : ''}import type { OperationHandler } from '../../src/handlers/operation.js';
${key.imports}import { ${upperSnake(persisted.read)}_TABLE } from '../tables.js';

/** ${id}: removes one ${persisted.read} by its key (its key is never reused), or ${notFoundCode(operation)}${
    refusals.length
      ? `; a row that names it and restricts its delete refuses it (${restrictions.map(({ reference }) => reference.restrictError).join(', ')})`
      : ''
  }. */
export function ${id}({ storage }: Pick<HandlerDeps, 'storage'>): OperationHandler<'${id}'> {
  return async (${key.path}${condition.expected ? ', headers' : ''} }) => {
    ${key.convert}${condition.expected}const outcome = await storage.deleteRow(${upperSnake(persisted.read)}_TABLE, ${key.key}${condition.argument});
    if (outcome.kind === 'not_found') throw ${notFound(operation, parameter, key.key)};
    ${condition.refusal}${restricted}return { status: ${status} };
  };
}
`;
}

/** Whether the client sends a row's key (a create writes it): then a key a row has already is refused. */
function clientKey(document: OpenApiDocument, persisted: PersistedSchemas): boolean {
  return columnsOf(document, persisted).some(({ property, written }) => property === persisted.key && written);
}

/** The error of a create whose key a row has: \`x-storage\`'s \`conflict\` code, else the stack's conflict (409). */
function conflict({ read, key, conflict: code }: PersistedSchemas): string {
  return code
    ? `apiError('${code}', { ${key}: input.${key} })`
    : `apiError('conflict', { resource: ${literal(read)}, key: String(input.${key}) })`;
}

function createHandler(document: OpenApiDocument, operation: CrudOperation, all: readonly CrudOperation[]): string {
  const { entry, persisted } = operation;
  const id = entry.operation.operationId;
  const { read, written } = persisted;
  if (!written) throw new Error(`${id}: x-storage create inserts ${read}'s x-storage \`written\` schema: name it (${HERE})`);
  const status = documentedStatus(document, operation, ['201', '200']);
  const located = needs(operation, document, status).headers?.['Location'] !== undefined;
  const getter = all.find((other) => other.kind === 'get' && other.persisted.read === read);
  if (located && !getter)
    throw new Error(`${id}: its Location names where the ${read} is read: mark that operation x-storage get (${HERE})`);
  const withTag = tagged(document, operation, status);
  const row = rowType(document, persisted);
  // A Location only where the answer declares one.
  const headers = [
    ...(located && getter
      ? [
          `Location: operationPath(basePath, '${getter.entry.operation.operationId}', { ${keyParameter(document, getter)}: created.${persisted.key} })`,
        ]
      : []),
    ...(withTag ? [`ETag: rowETag(created.${persisted.key}, ${row.version})`] : []),
  ];
  const location = headers.length ? `, headers: { ${headers.join(', ')} }` : '';
  const references = foreignKeys(document, persisted, persistedSchemas(document)).map(
    ({ property, error }) =>
      `if (outcome.kind === 'missing_reference' && outcome.property === ${literal(property)}) throw apiError('${error}', { ${property}: input.${property} });`,
  );
  const refusal = `if (outcome.kind === 'missing_reference' || outcome.kind === 'duplicate_key') {
      ${[...(clientKey(document, persisted) ? [`if (outcome.kind === 'duplicate_key') throw ${conflict(persisted)};`] : []), ...references].join('\n      ')}
      throw new Error(\`the insert was refused: \${outcome.kind}\`);
    }`;
  const keyHeader = headerParameter(document, entry, IDEMPOTENCY_KEY);
  if (keyHeader) for (const status of ['409', '422']) needs(operation, document, status);
  const deps = ['storage', ...(located ? ['basePath'] : []), 'clock', ...(keyHeader ? ['idempotencyRetentionSeconds'] : [])];
  const insert = `storage.insertRow<${row.type}>(${upperSnake(read)}_TABLE, ${lowerFirst(written)}Values(input))`;
  const answer = `const answer = (row: ${row.type}): OperationResult<'${id}'> => {
    const created = ${lowerFirst(read)}FromRow(row);
    return { status: ${status}, body: created${location} };
  };`;
  const body = keyHeader
    ? `return async ({ body, headers, principal, render }) => {
    const now = clock();
    const input = rules.beforeCreate ? await rules.beforeCreate(body, { now, principal }) : body;
    const header = headers[${literal(keyHeader.name)}];
    if (header === undefined) {
      const outcome = await ${insert};
      ${refusal}
      return answer(outcome.row);
    }
    const idempotency = keyedRequest('${id}', { header, body, accountId: principal.accountId, now }, idempotencyRetentionSeconds);
    const outcome = await storage.insertRowIdempotently<${row.type}>(${upperSnake(read)}_TABLE, ${lowerFirst(written)}Values(input), idempotency, (row) =>
      render(answer(row)),
    );
    ${refusal}
    return answerOf(outcome);
  };`
    : `return async ({ body, principal }) => {
    const input = rules.beforeCreate ? await rules.beforeCreate(body, { now: clock(), principal }) : body;
    const outcome = await ${insert};
    ${refusal}
    return answer(outcome.row);
  };`;
  return `import { apiError } from '../../src/errors/api-error.js';
import type { HandlerDeps } from '../../src/handlers/deps.js';
${withTag ? "import { rowETag } from '../../src/handlers/entity-tags.js';\n" : ''}${keyHeader ? "import { answerOf, keyedRequest } from '../../src/handlers/idempotency.js';\n" : ''}${located ? "import { operationPath } from '../../src/handlers/links.js';\n" : ''}import type { ${keyHeader ? 'RecordingOperationHandler' : 'OperationHandler'}, OperationResult } from '../../src/handlers/operation.js';
import { rules } from '../../${rulesPath(read).replace(/\.ts$/, '.js')}';
${imports(operation, [`${lowerFirst(written)}Values`])}

/**
 * ${id}: stores a ${written} as a ${read}, after its business rules (${rulesPath(read)}), and answers
 * it${located ? ' with its Location' : ''}. A reference to a row that does not exist is refused by the database, in the insert's
 * transaction, with the error openapi.yaml declares for it.${
   keyHeader
     ? `
 * With ${keyHeader.name}, the answer is rendered and recorded with the row, in one transaction, and a
 * retry with the same body gets it again; the key's record is checked after the rules have run.`
     : ''
 }
 */
export function ${id}({ ${deps.join(', ')} }: Pick<HandlerDeps, ${deps.map((name) => `'${name}'`).join(' | ')}>): ${keyHeader ? 'RecordingOperationHandler' : 'OperationHandler'}<'${id}'> {
  ${answer}
  ${body}
}
`;
}

/** generated/handlers/<operation>.ts for each CRUD operation. */
export function resourceHandlerFiles(document: OpenApiDocument, header: string, generatedDir: string): FileText[] {
  const operations = crudOperations(document);
  return operations.map((operation) => {
    const text = {
      list: () => listHandler(document, operation),
      get: () => getHandler(document, operation),
      update: () => updateHandler(document, operation),
      delete: () => deleteHandler(document, operation),
      create: () => createHandler(document, operation, operations),
    }[operation.kind]();
    return { path: join(generatedDir, 'handlers', `${kebabCase(operation.entry.operation.operationId)}.ts`), text: `${header}${text}` };
  });
}

/** src/rules/<schema>.ts, once, for each stored schema a CRUD operation works on and that has none. */
export function rulesScaffoldFiles(document: OpenApiDocument, root: string): FileText[] {
  const schemas = [...new Map(crudOperations(document).map(({ persisted }) => [persisted.read, persisted])).values()];
  return schemas
    .filter(({ read }) => !existsSync(join(root, rulesPath(read))))
    .map(({ read, written }) => ({
      path: rulesPath(read),
      text: `import type { components } from '../../generated/openapi.js';
import type { ResourceRules } from '../handlers/resource-rules.js';

/**
 * The business rules of ${read}, which the handlers \`npm run generate\` writes for its operations
 * call (generated/handlers/). Written once by \`npm run generate\`, never overwritten: yours to edit.
 * Raise an error of openapi.yaml's ErrorCode with apiError (src/errors/api-error.ts).
 */
export const rules: ResourceRules<${written ? `components['schemas'][${literal(written)}]` : 'never'}> = {};
`,
    }));
}
