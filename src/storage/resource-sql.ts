// The statements of the generic resource store (resources.ts), made from a table's description in
// generated/tables.ts: the same SQL in both backends but for how a parameter is written.
import type { ExpectedRowVersions, RowUpdate, StoredRow } from './resources.js';
import type { StoredTable } from './stored-tables.js';

const quoted = (name: string) => `"${name}"`;

/** A parameter's placeholder by its position (from 1): `?` in SQLite, `$n` in PostgreSQL. */
export type Placeholder = (position: number) => string;

export function keyColumn(table: StoredTable): string {
  const column = table.columns.find(({ property }) => property === table.key);
  if (!column) throw new Error(`table ${table.table} has no column for its key ${table.key}`);
  return quoted(column.column);
}

/** A versioned table's column of its own: the ETag's version. */
const VERSION = quoted('version');

/** What a read returns: the read columns in order, then the version where the table keeps one. */
function readList(table: StoredTable): string {
  const columns = table.columns.filter(({ read }) => read).map(({ column }) => quoted(column));
  return [...columns, ...(table.versioned ? [VERSION] : [])].join(', ');
}

/**
 * A write's condition on the row's version (If-Match): none when `expected` is undefined, otherwise
 * the version is one of `expected`, whose values are the parameters from `first` on. The compare is
 * in the write's own statement, so no other write comes between it and the change.
 */
function versionCondition(expected: number | undefined, first: number, at: Placeholder): string {
  if (expected === undefined) return '';
  return ` AND ${VERSION} IN (${Array.from({ length: expected }, (_, index) => at(first + index)).join(', ')})`;
}

/** The column of each filtered property, in the order given; throws for a property the read schema lacks. */
export function filterColumns(table: StoredTable, properties: readonly string[]): string[] {
  return properties.map((property) => {
    const column = table.columns.find((candidate) => candidate.property === property && candidate.read);
    if (!column) throw new Error(`table ${table.table} has no column for ${property} to filter on`);
    return quoted(column.column);
  });
}

/** INSERT of the written columns, in order, returning the row. */
export function insertSql(table: StoredTable, at: Placeholder): string {
  const written = table.columns.filter(({ written }) => written);
  const columns = written.map(({ column }) => quoted(column)).join(', ');
  return `INSERT INTO ${quoted(table.table)} (${columns}) VALUES (${written.map((_, index) => at(index + 1)).join(', ')}) RETURNING ${readList(table)}`;
}

export function getSql(table: StoredTable, at: Placeholder): string {
  return `SELECT ${readList(table)} FROM ${quoted(table.table)} WHERE ${keyColumn(table)} = ${at(1)}`;
}

/** DELETE by key (the first parameter), and, given `expected` versions (a count, at least 1), only at one of them (the next parameters). */
export function deleteSql(table: StoredTable, at: Placeholder, expected?: number): string {
  return `DELETE FROM ${quoted(table.table)} WHERE ${keyColumn(table)} = ${at(1)}${versionCondition(expected, 2, at)} RETURNING ${keyColumn(table)}`;
}

/**
 * UPDATE of the patched columns, by key, returning the row: for each, in order, a parameter that is 1
 * when the merge patch has the property, then its value (generated/tables.ts's <Patch>Values); then the key;
 * then, given `expected` versions (a count, at least 1), each of them. A versioned row's version goes up by one.
 */
export function updateSql(table: StoredTable, at: Placeholder, expected?: number): string {
  const patched = table.columns.filter(({ patched }) => patched);
  const assignments = patched.map(({ column }, index) => {
    const name = quoted(column);
    return `${name} = CASE WHEN ${at(2 * index + 1)} = 1 THEN ${at(2 * index + 2)} ELSE ${name} END`;
  });
  if (table.versioned) assignments.push(`${VERSION} = ${VERSION} + 1`);
  const key = 2 * patched.length + 1;
  return `UPDATE ${quoted(table.table)} SET ${assignments.join(', ')} WHERE ${keyColumn(table)} = ${at(key)}${versionCondition(expected, key + 1, at)} RETURNING ${readList(table)}`;
}

/** What every key of a table is greater than: the first page starts after it. */
export function firstKey(table: StoredTable): number | string {
  return table.columns.find(({ property }) => property === table.key)?.type === 'string' ? '' : 0;
}

/** A page in key order: parameters are the filters' values, in order, then the key to start after, then the limit. */
export function listSql(table: StoredTable, filtered: readonly string[], at: Placeholder): string {
  const conditions = filterColumns(table, filtered).map((column, index) => `${column} = ${at(index + 1)}`);
  const key = keyColumn(table);
  conditions.push(`${key} > ${at(filtered.length + 1)}`);
  return `SELECT ${readList(table)} FROM ${quoted(table.table)} WHERE ${conditions.join(' AND ')} ORDER BY ${key} LIMIT ${at(filtered.length + 2)}`;
}

/** Whether the row a foreign key names exists: what tells SQLite's unnamed violation apart. */
export function referencedSql(reference: { table: string; key: string }, at: Placeholder): string {
  return `SELECT 1 FROM ${quoted(reference.table)} WHERE ${quoted(reference.key)} = ${at(1)}`;
}

/** Whether a row of a restricting table names the key: what tells SQLite's unnamed violation apart on a delete. */
export function referencingSql(restriction: { table: string; column: string }, at: Placeholder): string {
  return `SELECT 1 FROM ${quoted(restriction.table)} WHERE ${quoted(restriction.column)} = ${at(1)} LIMIT 1`;
}

/** Whether a merge patch (generated/tables.ts's <Patch>Values: each flag, then its value) sets no property. */
export function setsNothing(patch: readonly unknown[]): boolean {
  return patch.every((value, index) => index % 2 === 1 || value === 0);
}

/**
 * What an update that sets nothing answers, from the row as it is: nothing is written, so the
 * version (and the ETag) stays, and If-Match still has to hold.
 */
export function unchanged<Row extends StoredRow>(table: StoredTable, row: Row | undefined, expected: ExpectedRowVersions): RowUpdate<Row> {
  if (!row) return { kind: 'not_found' };
  const version = row[table.columns.filter(({ read }) => read).length];
  return expected === undefined || expected.includes(version as number) ? { kind: 'updated', row } : { kind: 'precondition_failed' };
}

/** The filters of a page that have a value, as property names and their values, in order. */
export function givenFilters(filters: Readonly<Record<string, unknown>>): { properties: string[]; values: unknown[] } {
  const given = Object.entries(filters).filter(([, value]) => value !== undefined);
  return { properties: given.map(([property]) => property), values: given.map(([, value]) => value) };
}
