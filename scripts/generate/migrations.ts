// The migrations `npm run generate` writes (Alembic's `revision --autogenerate`): for each table or
// column that openapi.yaml's stored schemas have (generate/tables.ts) and the migrations do not make
// yet, a new migration for each backend, appended to its list with the next free version, for review
// and commit. A migration that is there is never changed. What is missing is found the way the store
// finds it on opening (src/storage/stored-tables.ts), on an in-memory SQLite database migrated with
// the project's own SQLite migrations; the PostgreSQL migrations make the same tables and columns
// (test/storage/postgres/migrate.test.ts checks it), so the two lists grow together.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import type { OpenApiDocument } from '../../src/contract/spec.js';
import type { Migration } from '../../src/storage/migration.js';
import { POSTGRES_SCHEMA } from '../../src/storage/postgres/migrate.js';
import { migrateSqlite, SQLITE_SCHEMA, sqliteColumns } from '../../src/storage/sqlite/migrate.js';
import { missingColumns, type BackendSchema } from '../../src/storage/stored-tables.js';
import type { FileText } from './scaffold.js';
import { columnsOf, foreignKeys, persistedSchemas, type Column, type ForeignKey, type PersistedSchemas } from './tables.js';

const HERE = 'scripts/generate/migrations.ts';

/** A table of the spec with its columns, as generate/tables.ts derives them. */
interface SpecTable extends PersistedSchemas {
  columns: Column[];
  foreignKeys: ForeignKey[];
}

interface Backend {
  schema: BackendSchema;
  /** The module's export that lists the migrations. */
  list: string;
  /** A column's DEFAULT, in the backend's words. */
  literal(value: string | number | boolean): string;
  /** The DDL of a new table. */
  createTable(table: SpecTable): string;
  /** The DDL that adds columns to a table there is (and keeps its indexes valid). */
  addColumns(table: SpecTable, columns: Column[]): string;
}

const quoted = (name: string) => `"${name}"`;

function literal(value: string | number | boolean): string {
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  return typeof value === 'number' ? String(value) : `'${value.replaceAll("'", "''")}'`;
}

/** A random (version 4) UUID as text, for a key the server makes: SQLite has no function for one. */
const SQLITE_UUID =
  "(lower(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-' || " +
  "substr('89ab', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-' || hex(randomblob(6))))";

/** What the spec requires of a column: NOT NULL where a read always has it, with the schema's default for the rows there are. */
function constraints(backend: Pick<Backend, 'literal'>, table: SpecTable, column: Column, existingRows: boolean): string {
  const required = (column.readRequired || column.writtenRequired) && !column.nullable;
  const defaulted = column.defaultValue === undefined ? '' : ` DEFAULT ${backend.literal(column.defaultValue)}`;
  if (required && existingRows && !defaulted) {
    throw new Error(
      `${table.read}.${column.property} is required, and table ${table.table} has rows without it: give its schema a \`default\` ` +
        `for them, or write its migration by hand in ${SQLITE_SCHEMA.migrations} and ${POSTGRES_SCHEMA.migrations} (${HERE})`,
    );
  }
  return `${required ? ' NOT NULL' : ''}${defaulted}${referenceClause(table, column)}`;
}

/** A foreign key's clause, the same in both backends: the database checks it in the writing transaction. */
function referenceClause(table: SpecTable, column: Column): string {
  const reference = table.foreignKeys.find(({ property }) => property === column.property);
  if (!reference) return '';
  return ` CONSTRAINT ${quoted(reference.constraint)} REFERENCES ${quoted(reference.table)} (${quoted(reference.key)}) ON DELETE ${reference.onDelete.toUpperCase()}`;
}

/** How a backend writes the key column the server makes: an identity, or a random UUID as text. */
interface GeneratedKeys {
  identity: string;
  uuid: string;
}

/** The key column of a new table: one the database makes when no create writes it (generate/tables.ts). */
function keyDefinition(column: Column, types: Record<Column['type'], string>, keys: GeneratedKeys): string {
  if (column.generatedKey === 'identity') return `${quoted(column.column)} ${keys.identity}`;
  const made = column.generatedKey === 'uuid' ? ` DEFAULT ${keys.uuid}` : '';
  return `${quoted(column.column)} ${types[column.type]} NOT NULL PRIMARY KEY${made}`;
}

function createTable(
  backend: Pick<Backend, 'literal'>,
  table: SpecTable,
  types: Record<Column['type'], string>,
  keys: GeneratedKeys,
): string {
  const definitions = table.columns.map((column) =>
    column.property === table.key
      ? keyDefinition(column, types, keys)
      : `${quoted(column.column)} ${types[column.type]}${constraints(backend, table, column, false)}`,
  );
  return `CREATE TABLE ${quoted(table.table)} (\n  ${definitions.join(',\n  ')}\n);`;
}

const SQLITE: Backend = {
  schema: SQLITE_SCHEMA,
  list: 'sqliteMigrations',
  // SQLite has no boolean: true and false are 1 and 0 (src/storage/column-codec.ts).
  literal: (value) => (typeof value === 'boolean' ? String(Number(value)) : literal(value)),
  // AUTOINCREMENT: an id is never given again, even after the highest row is gone.
  createTable: (table) =>
    createTable(SQLITE, table, SQLITE_SCHEMA.sqlTypes, { identity: 'INTEGER PRIMARY KEY AUTOINCREMENT', uuid: SQLITE_UUID }),
  addColumns: (table, columns) =>
    columns
      .map(
        (column) =>
          `ALTER TABLE ${quoted(table.table)} ADD COLUMN ${quoted(column.column)} ${SQLITE_SCHEMA.sqlTypes[column.type]}${constraints(SQLITE, table, column, true)};`,
      )
      .join('\n'),
};

const POSTGRES: Backend = {
  schema: POSTGRES_SCHEMA,
  list: 'postgresMigrations',
  literal,
  createTable: (table) =>
    createTable(POSTGRES, table, POSTGRES_SCHEMA.sqlTypes, {
      identity: 'bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY',
      uuid: '(gen_random_uuid()::text)',
    }),
  addColumns(table, columns) {
    const added = columns.map(
      (column) =>
        `ALTER TABLE ${quoted(table.table)} ADD COLUMN ${quoted(column.column)} ${POSTGRES_SCHEMA.sqlTypes[column.type]}${constraints(POSTGRES, table, column, true)};`,
    );
    // An index that covers every column a read selects is built again with the new ones, under a
    // new name first, so that reads keep their index until the new one is there.
    const rebuilt = columns.some((column) => column.read)
      ? (table.coveringIndexes ?? []).map(({ name, key }) => {
          const included = table.columns
            .filter((column) => column.read && !key.includes(column.column))
            .map((column) => quoted(column.column));
          return [
            `-- ${name} holds every column a read selects, so that a page comes from the index alone: built again with the new ones.`,
            `CREATE INDEX ${name}_covering ON ${quoted(table.table)} (${key.map(quoted).join(', ')}) INCLUDE (${included.join(', ')});`,
            `DROP INDEX ${name};`,
            `ALTER INDEX ${name}_covering RENAME TO ${name};`,
          ].join('\n');
        })
      : [];
    return [...added, ...rebuilt].join('\n');
  },
};

/** The DDL a backend's migration makes a stored schema's table with (what the store tests make their tables with). */
export function createTableSql(document: OpenApiDocument, persisted: PersistedSchemas, backend: 'sqlite' | 'postgres'): string {
  const all = persistedSchemas(document);
  const table = { ...persisted, columns: columnsOf(document, persisted), foreignKeys: foreignKeys(document, persisted, all) };
  return (backend === 'sqlite' ? SQLITE : POSTGRES).createTable(table);
}

/** A module of the project, loaded afresh: npm run dev's generator lives on while the lists grow. */
let loads = 0;
async function migrationsOf(root: string, { schema, list }: Backend): Promise<readonly Migration[]> {
  const url = pathToFileURL(join(root, schema.migrations)).href;
  const module = (await import(`${url}?generate=${++loads}`)) as Record<string, unknown>;
  const migrations = module[list];
  if (!Array.isArray(migrations)) throw new Error(`${schema.migrations} exports no ${list} (${HERE})`);
  return migrations as readonly Migration[];
}

/** An index the spec declares on a table (`x-storage`'s `indexes`), named after its table and columns. */
interface Index {
  name: string;
  columns: string[];
}

function indexesOf(table: SpecTable): Index[] {
  return (table.indexes ?? []).map((properties) => {
    const columns = properties.map((property) => {
      const column = table.columns.find((candidate) => candidate.property === property);
      if (!column) throw new Error(`${table.read} has no property ${property}, which an index of table ${table.table} names (${HERE})`);
      return column.column;
    });
    return { name: `${table.table}_${columns.join('_')}`, columns };
  });
}

/** What a table lacks: its columns (all of them when it is not there at all), and its indexes. */
interface Change {
  table: SpecTable;
  absent: boolean;
  columns: Column[];
  indexes: Index[];
}

/** What each table of the spec lacks after the SQLite migrations: the store's own check, on an in-memory database. */
async function changesAfter(migrations: readonly Migration[], tables: SpecTable[]): Promise<Change[]> {
  const db = new Database(':memory:');
  try {
    await migrateSqlite(db, migrations);
    const missing = new Map(missingColumns(sqliteColumns(db), tables).map((entry) => [entry.table, entry]));
    const indexNames = db.prepare<[string], string>('SELECT name FROM pragma_index_list(?)').pluck();
    return tables.flatMap((table) => {
      const columns = missing.get(table);
      const present = new Set(indexNames.all(table.table));
      const indexes = indexesOf(table).filter(({ name }) => !present.has(name));
      if (!columns && indexes.length === 0) return [];
      return [{ table, absent: columns?.absent ?? false, columns: (columns?.columns ?? []) as Column[], indexes }];
    });
  } finally {
    db.close();
  }
}

/** The properties a change stores, for the comment above it. */
function describe(changes: Change[]): string {
  return changes
    .map(({ table, columns, absent, indexes }) =>
      [
        ...(absent
          ? [`${table.read} (table ${table.table})`]
          : columns.flatMap(({ property, column, read, written }) =>
              read || written
                ? [...(read ? [`${table.read}.${property}`] : []), ...(written ? [`${table.written}.${property}`] : [])]
                : // A column of the store's own, such as a versioned resource's version: no property names it.
                  [`the ${column} column of ${table.read}`],
            )),
        ...(absent ? [] : indexes.map(({ name }) => `the index ${name} of ${table.read}`)),
      ].join(', '),
    )
    .join('; ');
}

/** The migration's name: what it changes. */
function nameOf(changes: Change[]): string {
  return changes
    .map(({ table, columns, absent, indexes }) =>
      absent
        ? `create ${table.table}`
        : [
            ...(columns.length ? [`add ${columns.map((c) => `${table.table}.${c.column}`).join(', ')}`] : []),
            ...(indexes.length ? [`index ${indexes.map(({ name }) => name).join(', ')}`] : []),
          ].join('; '),
    )
    .join('; ');
}

/** The entry appended to a backend's list. */
function entry(backend: Backend, version: number, changes: Change[]): string {
  const sql = changes
    .map(({ table, columns, absent, indexes }) =>
      [
        ...(absent ? [backend.createTable(table)] : columns.length ? [backend.addColumns(table, columns)] : []),
        ...indexes.map(
          ({ name, columns: indexed }) => `CREATE INDEX ${name} ON ${quoted(table.table)} (${indexed.map(quoted).join(', ')});`,
        ),
      ].join('\n'),
    )
    .join('\n\n');
  const body = sql.replaceAll('\\', '\\\\').replaceAll('`', '\\`').replaceAll('${', '\\${');
  return `  {
    version: ${version},
    name: ${JSON.stringify(nameOf(changes))},
    // Written by \`npm run generate\` for ${describe(changes)} of openapi.yaml. Review it before
    // it is committed; once shipped, never edit it: add the next one.
    sql: \`
${body.replace(/^(?=.)/gm, '      ')}
    \`,
  },
`;
}

/** The list's source with `text` added as its last entry; the entries there are stay as they are. */
function appended(source: string, file: string, text: string): string {
  const end = source.lastIndexOf('];');
  if (end === -1 || source.slice(end + 2).trim() !== '')
    throw new Error(`${file} does not end with its list of migrations (\`];\`): add the migration by hand (${HERE})`);
  const before = source.slice(0, end).trimEnd();
  return `${before}${before.endsWith('[') || before.endsWith(',') ? '' : ','}\n${text}${source.slice(end)}`;
}

/** A new migration, by backend, written to its list. */
export interface WrittenMigration {
  file: string;
  version: number;
  name: string;
}

/**
 * The migration lists with a new migration appended for what the spec stores and the migrations do
 * not make yet, one per backend; none when nothing is missing. Throws, naming the property, when a
 * column cannot be added without a value for the rows there are.
 */
export async function migrationFiles(document: OpenApiDocument, root: string): Promise<{ files: FileText[]; written: WrittenMigration[] }> {
  const all = persistedSchemas(document);
  const tables = all.map((persisted) => ({
    ...persisted,
    columns: columnsOf(document, persisted),
    foreignKeys: foreignKeys(document, persisted, all),
  }));
  const changes = await changesAfter(await migrationsOf(root, SQLITE), tables);
  if (changes.length === 0) return { files: [], written: [] };
  const files: FileText[] = [];
  const written: WrittenMigration[] = [];
  for (const backend of [SQLITE, POSTGRES]) {
    const version = Math.max(0, ...(await migrationsOf(root, backend)).map((migration) => migration.version)) + 1;
    const file = backend.schema.migrations;
    const text = entry(backend, version, changes);
    files.push({ path: file, text: appended(readFileSync(join(root, file), 'utf8'), file, text) });
    written.push({ file, version, name: nameOf(changes) });
  }
  return { files, written };
}
