import type Database from 'better-sqlite3';
import { codecFor, SQLITE_CODEC } from '../column-codec.js';
import {
  deleteSql,
  firstKey,
  getSql,
  givenFilters,
  insertSql,
  listSql,
  referencedSql,
  referencingSql,
  setsNothing,
  unchanged,
  updateSql,
} from '../resource-sql.js';
import type { ExpectedRowVersions, RowCreation, RowDeletion, RowPage, RowUpdate, StoredRow } from '../resources.js';
import type { StoredTable } from '../stored-tables.js';

const at = () => '?';

/** SQLite reports ON DELETE RESTRICT, checked at once rather than at the commit, as a trigger's constraint. */
const RESTRICT_CODES: unknown[] = ['SQLITE_CONSTRAINT_TRIGGER', 'SQLITE_CONSTRAINT_FOREIGNKEY'];

/**
 * The generic resource store's statements on one connection, prepared on first use and kept: reads on
 * the main thread's, inserts and deletes on the writer thread's (write-batch.ts runs them in its batch).
 */
export class SqliteResources {
  private readonly statements = new Map<string, Database.Statement<unknown[], StoredRow>>();

  constructor(private readonly db: Database.Database) {}

  private statement(name: string, sql: () => string): Database.Statement<unknown[], StoredRow> {
    let statement = this.statements.get(name);
    if (!statement) {
      const prepared = this.db.prepare<unknown[]>(sql());
      statement = (prepared.reader ? prepared.raw() : prepared) as unknown as Database.Statement<unknown[], StoredRow>;
      this.statements.set(name, statement);
    }
    return statement;
  }

  get(table: StoredTable, key: number | string): StoredRow | undefined {
    const row = this.statement(`get ${table.table}`, () => getSql(table, at)).get(key);
    return row && codecFor(table, SQLITE_CODEC).row(row);
  }

  list(table: StoredTable, { limit, afterKey = firstKey(table), filters }: RowPage): StoredRow[] {
    const codec = codecFor(table, SQLITE_CODEC);
    const { properties, values } = givenFilters(codec.filters(filters));
    return this.statement(`list ${table.table} ${properties.join(',')}`, () => listSql(table, properties, at))
      .all(...values, afterKey, limit)
      .map((row) => codec.row(row));
  }

  /** A foreign key's violation says no more than that one was violated: each reference's row is looked for, in the same transaction. */
  insert(table: StoredTable, given: readonly unknown[]): RowCreation<StoredRow> {
    const codec = codecFor(table, SQLITE_CODEC);
    const values = codec.written(given);
    try {
      return { kind: 'created', row: codec.row(this.statement(`insert ${table.table}`, () => insertSql(table, at)).get(...values)!) };
    } catch (error) {
      if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY') return { kind: 'duplicate_key' };
      if ((error as { code?: unknown }).code !== 'SQLITE_CONSTRAINT_FOREIGNKEY') throw error;
      const written = table.columns.filter((column) => column.written);
      const missing = table.references.find((reference) => {
        const value = values[written.findIndex(({ property }) => property === reference.property)];
        return (
          value !== null &&
          this.statement(`referenced ${reference.constraint}`, () => referencedSql(reference, at)).get(value) === undefined
        );
      });
      if (!missing) throw error;
      return { kind: 'missing_reference', property: missing.property };
    }
  }

  /** Runs in the writer's batch: a missed version is told from a missing row in the same transaction. */
  update(table: StoredTable, key: number | string, patch: readonly unknown[], expected?: ExpectedRowVersions): RowUpdate<StoredRow> {
    if (setsNothing(patch)) return unchanged(table, this.get(table, key), expected);
    if (expected?.length === 0) return this.missed(table, key);
    const codec = codecFor(table, SQLITE_CODEC);
    const row = this.statement(`update ${table.table} ${expected?.length ?? ''}`, () => updateSql(table, at, expected?.length)).get(
      ...codec.patch(patch),
      key,
      ...(expected ?? []),
    );
    return row ? { kind: 'updated', row: codec.row(row) } : this.missed(table, key);
  }

  /** Why a write by key changed nothing: no such row, or a version not expected. */
  private missed(table: StoredTable, key: number | string): { kind: 'not_found' } | { kind: 'precondition_failed' } {
    return this.get(table, key) === undefined ? { kind: 'not_found' } : { kind: 'precondition_failed' };
  }

  /** As with an insert, a violation names no constraint: each restricting table is looked in for a row naming this one. */
  delete(table: StoredTable, key: number | string, expected?: ExpectedRowVersions): RowDeletion {
    if (expected?.length === 0) return this.missed(table, key);
    try {
      const deleted = this.statement(`delete ${table.table} ${expected?.length ?? ''}`, () => deleteSql(table, at, expected?.length)).get(
        key,
        ...(expected ?? []),
      );
      return deleted === undefined ? this.missed(table, key) : { kind: 'deleted' };
    } catch (error) {
      if (!RESTRICT_CODES.includes((error as { code?: unknown }).code)) throw error;
      const restricting = table.restrictedBy.find(
        (restriction) =>
          this.statement(`referencing ${restriction.constraint}`, () => referencingSql(restriction, at)).get(key) !== undefined,
      );
      if (!restricting) throw error;
      return { kind: 'restricted', constraint: restricting.constraint };
    }
  }
}

const onConnection = new WeakMap<Database.Database, SqliteResources>();

/** The one SqliteResources of a connection, so that each statement is prepared once on it. */
export function resourcesOn(db: Database.Database): SqliteResources {
  let resources = onConnection.get(db);
  if (!resources) {
    resources = new SqliteResources(db);
    onConnection.set(db, resources);
  }
  return resources;
}
