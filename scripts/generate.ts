// `npm run generate [-- --out DIR]`: checks openapi.yaml (scripts/generate/spec-check.ts: a spec the
// server could not serve writes nothing, and each problem is named with its file and line), then
// writes what is derived from it into generated/ (or DIR):
// - openapi.d.ts: the spec's types (openapi-typescript);
// - contract.ts: the spec's facts as code: each error code's HTTP status, each operation's method and
//   path, the operations that take an Idempotency-Key, and the typed results handlers return;
// - client-deprecations.ts: the typed client's surface for deprecated operations (overloads and
//   functions whose JSDoc carries @deprecated with the dates, so editors strike them through);
// - predecessor.ts (and v{major}/openapi.d.ts while a previous major version is served beside this
//   one): that version's types (generate/predecessor.ts);
// - tables.ts: the tables storage keeps the schemas marked x-storage in, their rows and mappers
//   (generate/tables.ts);
// - handlers/: the handler of each operation marked with a CRUD x-storage (generate/resources.ts),
//   which calls its schema's business rules, src/rules/<schema>.ts (scaffolded once, never overwritten).
// Without --out it also writes src/handlers/index.ts, the handler of every operation,
// src/storage/<backend>/hand-written-stores.ts (generate/hand-written-stores.ts), scaffolds
// what a new operation needs (scripts/generate/scaffold.ts) and, as a command, appends to each
// backend's migrations one that adds what the spec stores and they do not make yet
// (scripts/generate/migrations.ts). A file is written only when its
// content changes. generated/ is committed; test/scripts/generate.test.ts fails when it differs
// from a fresh run.
import { join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { createConfig } from '@redocly/openapi-core';
import openapiTS, { astToString, COMMENT_HEADER } from 'openapi-typescript';
import { format, resolveConfig } from 'prettier';
import * as estreePlugin from 'prettier/plugins/estree';
import * as typescriptPlugin from 'prettier/plugins/typescript';
import { readDeprecations, type Deprecation } from '../src/contract/deprecations.js';
import { readErrorCodes } from '../src/contract/error-codes.js';
import { listOperations, resolveRef, type OpenApiDocument, type OperationEntry, type SchemaObject } from '../src/contract/spec.js';
import { PACKAGE_ROOT } from '../src/package-root.js';
import { createIfAbsent, removeAllBut, writeIfChanged } from './generate/files.js';
import { migrationFiles, type WrittenMigration } from './generate/migrations.js';
import { predecessorFiles } from './generate/predecessor.js';
import { resourceHandlerFiles, rulesScaffoldFiles } from './generate/resources.js';
import { handlersIndexModule, scaffoldFiles, type FileText } from './generate/scaffold.js';
import { checkSpec, SpecProblems } from './generate/spec-check.js';
import { handWrittenStoresModules } from './generate/hand-written-stores.js';
import { operationsIndexModules, queriesModule, storageScaffoldFiles } from './generate/storage-scaffold.js';
import { tablesModule } from './generate/tables.js';

const HEADER = '// Generated from openapi.yaml by `npm run generate`: do not edit. CI fails when it is stale.\n';

interface Ref {
  $ref?: string;
}

interface HeaderObject extends Ref {
  required?: boolean;
  'x-set-by'?: string;
}

interface ResponseObject extends Ref {
  headers?: Record<string, HeaderObject>;
  content?: Record<string, unknown>;
}

interface ParameterObject extends Ref {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  schema?: SchemaObject & Ref;
}

interface RequestBodyObject extends Ref {
  content?: Record<string, unknown>;
}

const literal = (value: unknown) => JSON.stringify(value);
const key = (name: string) => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name));
const indent = (text: string, spaces: number) => text.replace(/^(?=.)/gm, ' '.repeat(spaces));

function isSuccess(status: string): boolean {
  return /^2(\d\d|XX)$/.test(status);
}

/** One member of OperationResults: a documented 2xx response, with the headers the handler sets. */
function resultType(document: OpenApiDocument, { operation }: OperationEntry, status: string, response: ResponseObject): string {
  const id = operation.operationId;
  const fields = [`status: ${/^\d+$/.test(status) ? status : 'number'};`];
  fields.push(
    response.content?.['application/json']
      ? `body: operations[${literal(id)}]['responses'][${status}]['content']['application/json'];`
      : 'body?: undefined;',
  );
  const headers: string[] = [];
  let anyRequired = false;
  for (const [name, header] of Object.entries(response.headers ?? {})) {
    const resolved = resolveRef(document, header);
    // Set on every response that declares it by the server itself (deprecation, request ids, ...),
    // so never the handler's to supply.
    if (resolved['x-set-by'] === 'server') continue;
    anyRequired ||= resolved.required === true;
    headers.push(
      `${key(name)}${resolved.required ? '' : '?'}: NonNullable<operations[${literal(id)}]['responses'][${status}]['headers'][${literal(name)}]>;`,
    );
  }
  fields.push(
    headers.length > 0 ? `headers${anyRequired ? '' : '?'}: {\n${indent(headers.join('\n'), 2)}\n};` : 'headers?: Record<string, never>;',
  );
  return `{\n${indent(fields.join('\n'), 2)}\n}`;
}

function contractModule(document: OpenApiDocument): string {
  const operations = listOperations(document);
  const statuses = [...readErrorCodes(document)].map(([code, status]) => `  ${key(code)}: ${status},`);

  const operationTable = operations.map(
    ({ method, path, operation }) =>
      `  ${key(operation.operationId)}: { method: ${literal(method.toUpperCase())}, path: ${literal(path)} },`,
  );

  const results = operations.map((entry) => {
    const responses = Object.entries(entry.operation.responses as Record<string, ResponseObject>).filter(([status]) => isSuccess(status));
    const members = responses.map(([status, response]) => resultType(document, entry, status, resolveRef(document, response)));
    return `  /** ${entry.method.toUpperCase()} ${entry.path} */\n  ${key(entry.operation.operationId)}: ${members.length ? members.map((m) => indent(m, 2).trimStart()).join(' | ') : 'never'};`;
  });

  // Operations that take an Idempotency-Key: the typed client keys and retries these, and only these.
  const idempotent = operations
    .filter(({ operation }) =>
      ((operation.parameters as ParameterObject[] | undefined) ?? []).some((p) => {
        const parameter = resolveRef(document, p);
        return parameter.in === 'header' && parameter.name.toLowerCase() === 'idempotency-key';
      }),
    )
    .map(({ method, path }) => `  { method: ${literal(method.toUpperCase())}, path: ${literal(path)} },`);

  const defaulted = operations.flatMap(({ operation }) => {
    const parameters = ((operation.parameters as ParameterObject[] | undefined) ?? []).map((p) => resolveRef(document, p));
    const names = (where: ParameterObject['in']) =>
      parameters
        .filter((p) => p.in === where && p.schema && resolveRef(document, p.schema)['default'] !== undefined)
        .map((p) => literal(p.name));
    const query = names('query');
    const header = names('header');
    if (query.length === 0 && header.length === 0) return [];
    return [`  ${key(operation.operationId)}: { query: ${query.join(' | ') || 'never'}; header: ${header.join(' | ') || 'never'} };`];
  });

  return `${HEADER}import type { operations } from './openapi.js';

/**
 * The document's error-code table (the schema of consts with x-http-status): every stable error code
 * it states, with its status. Empty for a document without one: the stack's codes keep their defaults.
 */
export const ERROR_STATUSES = {
${statuses.join('\n')}
} as const satisfies Record<string, number>;

/** Every operation served (those of paths; a webhook's or a callback's is the client's to serve): its method and its path template, relative to the base path. */
export const OPERATIONS = {
${operationTable.join('\n')}
} as const satisfies Partial<Record<keyof operations, { method: string; path: string }>>;

/** The operations that declare an \`Idempotency-Key\` header parameter: safe to retry with the same key. */
export const IDEMPOTENCY_KEY_OPERATIONS = [
${idempotent.join('\n')}
] as const satisfies ReadonlyArray<{ method: string; path: string }>;

/**
 * What each operation's handler returns: one member per documented 2xx response, with its JSON body
 * and the response headers the handler sets. Headers marked \`x-set-by: server\` are left out: the
 * server adds them itself. An operation without a 2xx response only ever raises errors (never).
 */
export interface OperationResults {
${results.join('\n')}
}

/** Query and header parameters that have a default: present on every validated request. */
export interface DefaultedParameters {
${defaulted.join('\n')}
}
`;
}

/** The @deprecated JSDoc of one deprecated operation: its dates and replacement, from x-deprecation. */
function deprecatedDoc(entry: OperationEntry, deprecation: Deprecation): string {
  const summary = entry.operation.summary ? `: ${entry.operation.summary}` : '';
  const { href, title } = deprecation.replacement;
  const iso = (date: Date) => date.toISOString().replace('.000Z', 'Z');
  return [
    `/**`,
    ` * ${entry.operation.operationId}${summary}.`,
    ` * @deprecated Since ${iso(deprecation.deprecatedAt)}: use ${title ? `${title} (\`${href}\`)` : `\`${href}\``} instead. Every`,
    ` * response carries \`Deprecation\`, \`Sunset\` and a successor \`Link\`; from its sunset instant,`,
    ` * ${iso(deprecation.sunsetAt)}, it answers \`410\`.`,
    ` */`,
  ].join('\n');
}

function camel(name: string): string {
  return name.replace(/[^A-Za-z0-9]+(.)/g, (_, next: string) => next.toUpperCase()).replace(/^[^A-Za-z_$]+/, '');
}

function clientDeprecationsModule(document: OpenApiDocument): string {
  const entries = new Map(listOperations(document).map((entry) => [entry.operation.operationId, entry]));
  const overloads = new Map<string, string[]>();
  const functions: string[] = [];
  for (const deprecation of readDeprecations(document)) {
    const entry = entries.get(deprecation.operationId)!;
    const method = entry.method.toUpperCase();
    const path = literal(entry.path);
    const doc = deprecatedDoc(entry, deprecation);
    overloads.set(method, [
      ...(overloads.get(method) ?? []),
      `${doc}\n<Init extends MaybeOptionalInit<paths[${path}], ${literal(entry.method)}>>(\n  url: ${path},\n  init: Init & { [key: string]: unknown },\n): Promise<FetchResponse<paths[${path}][${literal(entry.method)}], Init, \`\${string}/\${string}\`>>;`,
    ]);

    const id = literal(entry.operation.operationId);
    const parameters = ((entry.operation.parameters as ParameterObject[] | undefined) ?? []).map((p) => resolveRef(document, p));
    const pathNames = parameters.filter((p) => p.in === 'path').map((p) => p.name);
    const hasQuery = parameters.some((p) => p.in === 'query');
    const body = entry.operation.requestBody as RequestBodyObject | undefined;
    const hasBody = body !== undefined && resolveRef(document, body).content?.['application/json'] !== undefined;
    const args = [
      'client: DeprecationMarkedClient',
      ...pathNames.map((name) => `${camel(name)}: operations[${id}]['parameters']['path'][${literal(name)}]`),
      ...(hasBody ? [`body: NonNullable<operations[${id}]['requestBody']>['content']['application/json']`] : []),
      `init: { signal?: AbortSignal${hasQuery ? `; query?: operations[${id}]['parameters']['query']` : ''} } = {}`,
    ];
    const params = [
      ...(pathNames.length ? [`path: { ${pathNames.map((name) => `${key(name)}: ${camel(name)}`).join(', ')} }`] : []),
      ...(hasQuery ? ['query: init.query'] : []),
    ];
    functions.push(
      `${doc}\nexport function ${entry.operation.operationId}(${args.join(', ')}) {\n` +
        `  return client.${method}(${path}, { signal: init.signal${params.length ? `, params: { ${params.join(', ')} }` : ''}${hasBody ? ', body' : ''} });\n}`,
    );
  }
  const methods = [...overloads.keys()];
  const interfaces = methods.map(
    (method) =>
      `/** ${method} overloads for the deprecated ${method} operations, struck through in editors. */\nexport interface Deprecated${method} {\n${indent(overloads.get(method)!.join('\n'), 2)}\n}`,
  );
  const client = methods.length
    ? `Omit<Client<paths>, ${methods.map(literal).join(' | ')}> & {\n${methods.map((m) => `  ${m}: Deprecated${m} & Client<paths>[${literal(m)}];`).join('\n')}\n}`
    : 'Client<paths>';
  return `${HEADER}import type { Client, FetchResponse, MaybeOptionalInit } from 'openapi-fetch';
import type { operations, paths } from './openapi.js';

${interfaces.join('\n\n')}

/**
 * The openapi-fetch client for this API, with one extra, deprecated overload per deprecated
 * operation: openapi-fetch takes the path as a string argument, which cannot carry the operation's
 * @deprecated by itself. Still assignable to Client<paths>.
 */
export type DeprecationMarkedClient = ${client};

${functions.join('\n\n')}
`;
}

export interface GenerateOptions {
  /** The project: openapi.yaml, redocly.yaml and where the files go (default: this package). */
  root?: string;
  /** Write generated/'s files here instead, and nothing else (no registry, no scaffolding). */
  out?: string;
  /**
   * Also append a migration per backend for each table or column the spec stores and the migrations
   * do not make yet (scripts/generate/migrations.ts). The command does; npm run dev does not, so
   * that a half-typed property never becomes a migration.
   */
  migrations?: boolean;
  /** Called once the spec has passed its checks, before anything is written (npm run dev stops the old server then). */
  onValid?: () => void;
  /** Called once what the server runs on is written, before the types (npm run dev starts the new server then). */
  onServerFiles?: () => void;
}

export interface GenerateResult {
  /** The files written because their content changed, by their paths from the root (or from --out). */
  written: string[];
  unchanged: string[];
  /** New files for operations without a handler (handler, unit test, HTTP test). */
  scaffolded: string[];
  /** The migrations appended, one per backend (with `migrations`). */
  migrations: WrittenMigration[];
  /** Generated handlers of operations that are no longer CRUD operations of the spec, deleted. */
  removed: string[];
}

/**
 * Checks openapi.yaml (throwing SpecProblems, with file and line, when it cannot be served), then
 * writes what derives from it: a file only when its content changes, a scaffold only where nothing is.
 */
export async function generate({
  root = PACKAGE_ROOT,
  out,
  migrations = false,
  onValid,
  onServerFiles,
}: GenerateOptions = {}): Promise<GenerateResult> {
  const specPath = join(root, 'openapi.yaml');
  const document = await checkSpec(root, specPath);
  // Before anything is written: a column no migration can add stops the run.
  const planned =
    migrations && out === undefined
      ? await migrationFiles(document, root).catch((error: Error) => {
          throw new SpecProblems([error.message]);
        })
      : { files: [], written: [] };
  onValid?.();
  // Formatted like the hand-written code, so that the generated modules read the same way (the
  // project's Prettier settings, wherever --out points). The plugins are named so that npm run dev
  // can load them ahead of time.
  const prettierOptions = {
    ...(await resolveConfig(join(root, 'generated', 'contract.ts'))),
    parser: 'typescript',
    plugins: [typescriptPlugin, estreePlugin],
  };
  const generatedDir = out ?? join(root, 'generated');
  const from = out ?? root;
  const result: GenerateResult = { written: [], unchanged: [], scaffolded: [], migrations: planned.written, removed: [] };
  const write = async (files: FileText[]) => {
    for (const { path, text } of files) {
      (writeIfChanged(path, await format(text, prettierOptions)) ? result.written : result.unchanged).push(relative(from, path));
    }
  };

  const resourceHandlers = resourceHandlerFiles(document, HEADER, generatedDir);
  result.removed = removeAllBut(
    join(generatedDir, 'handlers'),
    resourceHandlers.map(({ path }) => path),
  ).map((path) => relative(from, path));
  // First what the server runs on, then the types, which only tsc and the client read.
  await write([
    { path: join(generatedDir, 'contract.ts'), text: contractModule(document) },
    { path: join(generatedDir, 'tables.ts'), text: tablesModule(document, HEADER) },
    { path: join(generatedDir, 'queries.ts'), text: queriesModule(document, HEADER) },
    ...resourceHandlers,
    ...(out === undefined
      ? [
          { path: join(root, 'src', 'handlers', 'index.ts'), text: handlersIndexModule(document, HEADER) },
          ...[...operationsIndexModules(document, HEADER), ...handWrittenStoresModules(document, HEADER)].map(({ path, text }) => ({
            path: join(root, path),
            text,
          })),
        ]
      : []),
    ...planned.files.map(({ path, text }) => ({ path: join(root, path), text })),
  ]);
  if (out === undefined) {
    for (const file of [...scaffoldFiles(document, root), ...storageScaffoldFiles(document, root), ...rulesScaffoldFiles(document, root)]) {
      if (createIfAbsent(join(root, file.path), await format(file.text, prettierOptions))) result.scaffolded.push(file.path);
    }
  }
  onServerFiles?.();

  // Lint ran above with redocly.yaml's rules; openapi-typescript would only run it again.
  const types = await openapiTS(pathToFileURL(specPath), { redocly: await createConfig({ extends: [] }), silent: true });
  const typesPath = join(generatedDir, 'openapi.d.ts');
  (writeIfChanged(typesPath, COMMENT_HEADER + astToString(types)) ? result.written : result.unchanged).push(relative(from, typesPath));
  await write([{ path: join(generatedDir, 'client-deprecations.ts'), text: clientDeprecationsModule(document) }]);
  for (const file of await predecessorFiles(document, root, generatedDir, HEADER)) {
    // The previous version's types as openapi-typescript writes them, as openapi.d.ts above.
    if (file.path.endsWith('.d.ts'))
      (writeIfChanged(file.path, file.text) ? result.written : result.unchanged).push(relative(from, file.path));
    else await write([file]);
  }
  return result;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { out: { type: 'string' } } });
  try {
    const { written, unchanged, scaffolded, migrations, removed } = await generate(
      values.out === undefined ? { migrations: true } : { out: resolve(values.out) },
    );
    const list = (files: string[]) => (files.length > 0 ? files.join(', ') : 'nothing');
    process.stderr.write(`wrote ${list(written)}; unchanged: ${list(unchanged)}\n`);
    if (removed.length > 0) process.stderr.write(`removed (their operations are no longer CRUD operations): ${removed.join(', ')}\n`);
    if (scaffolded.length > 0) process.stderr.write(`scaffolded (answering 501 until written): ${scaffolded.join(', ')}\n`);
    if (migrations.length > 0) {
      const each = migrations.map(({ file, version, name }) => `  ${file}: version ${version}, ${JSON.stringify(name)}`);
      process.stderr.write(`new migrations (review them, then commit):\n${each.join('\n')}\n`);
    }
  } catch (error) {
    if (!(error instanceof SpecProblems)) throw error;
    process.stderr.write(`openapi.yaml has problems; nothing was written:\n${error.problems.map((p) => `  ${p}`).join('\n')}\n`);
    process.exitCode = 1;
  }
}

// Run as a command (npm run generate); imported (npm run dev, tests), it only exports generate().
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
