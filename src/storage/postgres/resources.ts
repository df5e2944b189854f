import { codecFor, POSTGRES_CODEC } from '../column-codec.js';
import { deleteSql, firstKey, getSql, givenFilters, insertSql, listSql, setsNothing, unchanged, updateSql } from '../resource-sql.js';
import type {
  ExpectedRowVersions,
  ResourceStore,
  RowCreation,
  RowDeletion,
  RowPage,
  RowRefusal,
  RowUpdate,
  StoredRow,
} from '../resources.js';
import type { StoredTable } from '../stored-tables.js';
import { insertRowIdempotently } from './idempotency.js';
import type { Queries } from './queries.js';

const at = (position: number) => `$${position}`;

/** An insert's statement: a named one, prepared once per connection. */
export const insertStatement = (table: StoredTable) => ({ name: `${table.table}-insert`, text: insertSql(table, at) });

/** SQLSTATE foreign_key_violation: its error names the constraint. */
const FOREIGN_KEY_VIOLATION = '23503';
/** SQLSTATE restrict_violation: a delete refused by an ON DELETE RESTRICT foreign key, which it names. */
const RESTRICT_VIOLATION = '23001';

/** SQLSTATE unique_violation: on the table's primary key (\`<table>_pkey\`), a key the client sent that a row has. */
const UNIQUE_VIOLATION = '23505';

/** Why an insert that failed stored nothing, when the database refused it for a reason the API answers. */
export function insertRefusal(table: StoredTable, error: unknown): RowRefusal | undefined {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  if (code === UNIQUE_VIOLATION && constraint === `${table.table}_pkey`) return { kind: 'duplicate_key' };
  const property = missingReference(table, error);
  return property === undefined ? undefined : { kind: 'missing_reference', property };
}

/** The property whose reference names no row, when an insert's error is that foreign key's violation. */
export function missingReference(table: StoredTable, error: unknown): string | undefined {
  const { code, constraint } = error as { code?: unknown; constraint?: unknown };
  const reference = table.references.find((candidate) => candidate.constraint === constraint);
  return code === FOREIGN_KEY_VIOLATION ? reference?.property : undefined;
}

/**
 * The generic resource store on PostgreSQL: named statements made from generated/tables.ts. An insert
 * is one statement, so its foreign key is checked in its own transaction.
 */
export function postgresResources(queries: Queries): ResourceStore {
  /**
   * Why a write by key changed nothing: no such row, or a version not expected. The write itself
   * compared the version; this read only names the reason, so a row deleted in between reads as missing.
   */
  const get = async <Row extends StoredRow>(table: StoredTable, key: number | string): Promise<Row | undefined> => {
    const [row] = await queries.arrays<Row>({ name: `${table.table}-get`, text: getSql(table, at) }, [key]);
    return row && codecFor(table, POSTGRES_CODEC).row(row);
  };
  const missed = async (table: StoredTable, key: number | string): Promise<{ kind: 'not_found' } | { kind: 'precondition_failed' }> =>
    (await get(table, key)) === undefined ? { kind: 'not_found' } : { kind: 'precondition_failed' };
  return {
    async insertRow<Row extends StoredRow>(table: StoredTable, values: readonly unknown[]): Promise<RowCreation<Row>> {
      try {
        const codec = codecFor(table, POSTGRES_CODEC);
        const [row] = await queries.arrays<Row>(insertStatement(table), [...codec.written(values)]);
        return { kind: 'created', row: codec.row(row!) };
      } catch (error) {
        const refusal = insertRefusal(table, error);
        if (!refusal) throw error;
        return refusal;
      }
    },
    insertRowIdempotently: (table, values, idempotency, respond) => insertRowIdempotently(queries, table, values, idempotency, respond),
    getRow: get,
    async listRows<Row extends StoredRow>(table: StoredTable, { limit, afterKey = firstKey(table), filters }: RowPage): Promise<Row[]> {
      const codec = codecFor(table, POSTGRES_CODEC);
      const { properties, values } = givenFilters(codec.filters(filters));
      // A filtered page is sent unnamed, so planned for its values: see LIST_PETS_BY_STATUS (statements.ts).
      const statement =
        properties.length === 0 ? { name: `${table.table}-list`, text: listSql(table, [], at) } : { text: listSql(table, properties, at) };
      return (await queries.arrays<Row>(statement, [...values, afterKey, limit])).map((row) => codec.row(row));
    },
    async updateRow<Row extends StoredRow>(
      table: StoredTable,
      key: number | string,
      patch: readonly unknown[],
      expected?: ExpectedRowVersions,
    ): Promise<RowUpdate<Row>> {
      if (setsNothing(patch)) return unchanged(table, await get<Row>(table, key), expected);
      if (expected?.length === 0) return missed(table, key);
      const statement = { name: `${table.table}-update-${expected?.length ?? 0}`, text: updateSql(table, at, expected?.length) };
      const codec = codecFor(table, POSTGRES_CODEC);
      const [row] = await queries.arrays<Row>(statement, [...codec.patch(patch), key, ...(expected ?? [])]);
      return row ? { kind: 'updated', row: codec.row(row) } : missed(table, key);
    },
    async deleteRow(table: StoredTable, key: number | string, expected?: ExpectedRowVersions): Promise<RowDeletion> {
      if (expected?.length === 0) return missed(table, key);
      try {
        const statement = { name: `${table.table}-delete-${expected?.length ?? 0}`, text: deleteSql(table, at, expected?.length) };
        const deleted = await queries.arrays(statement, [key, ...(expected ?? [])]);
        return deleted.length > 0 ? { kind: 'deleted' } : missed(table, key);
      } catch (error) {
        const { code, constraint } = error as { code?: unknown; constraint?: unknown };
        const restricting = table.restrictedBy.find((candidate) => candidate.constraint === constraint);
        // PostgreSQL 18 reports an ON DELETE RESTRICT refusal as restrict_violation; 15 as a
        // foreign_key_violation. Either, on a constraint that restricts this delete, is the refusal.
        if ((code !== RESTRICT_VIOLATION && code !== FOREIGN_KEY_VIOLATION) || !restricting) throw error;
        return { kind: 'restricted', constraint: restricting.constraint };
      }
    },
  };
}
