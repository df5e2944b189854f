// The tables storage keeps for openapi.yaml's schemas (generated/tables.ts), against the tables a
// backend's migrations made: what the store checks on opening, and what `npm run generate` reads to
// write the migration that adds what is missing (scripts/generate/migrations.ts), so that the two
// can never disagree on what a migration must add.
import { STORED_TABLES, type ColumnType } from '../../generated/tables.js';

/** A column as generated/tables.ts describes it. */
export interface StoredColumn {
  readonly property: string;
  readonly column: string;
  readonly type: ColumnType;
  readonly read: boolean;
  readonly written: boolean;
  /** The merge patch has it: an update may set it. */
  readonly patched: boolean;
}

/** A table as generated/tables.ts describes it: the schema a read returns, and the one a create inserts, if any. */
export interface StoredTable {
  readonly table: string;
  readonly read: string;
  readonly written?: string;
  /** The property that identifies a row: the primary key. */
  readonly key: string;
  /** Foreign keys: a column naming the key column of a row of another table. */
  readonly references: readonly StoredReference[];
  /**
   * The table keeps a version per row (its `version` column, no property of the schema): a read
   * returns it after the read columns, every update raises it, and an update or delete may expect it.
   */
  readonly versioned: boolean;
  /** Foreign keys of other tables that refuse the delete of a row they name (ON DELETE RESTRICT). */
  readonly restrictedBy: readonly StoredRestriction[];
  readonly columns: readonly StoredColumn[];
}

export interface StoredReference {
  readonly property: string;
  readonly column: string;
  /** The constraint's name in both backends' migrations. */
  readonly constraint: string;
  readonly table: string;
  readonly key: string;
}

/** A column of another table whose foreign key keeps a row it names from being deleted. */
export interface StoredRestriction {
  readonly table: string;
  readonly column: string;
  /** The constraint's name in both backends' migrations: the generated delete answers its error. */
  readonly constraint: string;
}

/** A stored table by its name, as generated/tables.ts describes it (what crosses to SQLite's writer thread is the name). */
export function storedTable(name: string): StoredTable {
  const found = STORED_TABLES.find(({ table }) => table === name);
  if (!found) throw new Error(`no stored table ${name} in generated/tables.ts`);
  return found;
}

/** Where a backend's migrations are, and its SQL type for each JSON type: what a missing column's message names. */
export interface BackendSchema {
  migrations: string;
  sqlTypes: Record<ColumnType, string>;
}

/** What the check of a table's columns reads of it. */
export type TableColumns = Pick<StoredTable, 'table' | 'read' | 'written' | 'columns'>;

/** A table's columns that the database lacks; all of them when the table is not there (no column present). */
export interface MissingColumns {
  table: TableColumns;
  columns: StoredColumn[];
  /** The database has no such table at all. */
  absent: boolean;
}

/** Every table of `tables` with the columns `present` (the database's columns of a table, by name) lacks. */
export function missingColumns(
  present: (table: string) => readonly string[],
  tables: readonly TableColumns[] = STORED_TABLES,
): MissingColumns[] {
  return tables.flatMap((table) => {
    const columns = new Set(present(table.table));
    const missing = table.columns.filter((column) => !columns.has(column.column));
    return missing.length === 0 ? [] : [{ table, columns: missing, absent: columns.size === 0 }];
  });
}

const quoted = (column: string) => `"${column}"`;

/** The columns a read of the table selects, in its row's order, quoted: what a query of an \`x-storage\` schema selects. */
export function selectList(table: StoredTable): string {
  return table.columns
    .filter((column) => column.read)
    .map((column) => quoted(column.column))
    .join(', ');
}

/**
 * The error that stops a store from opening while a table or column of openapi.yaml has no migration
 * (rather than dropping the property on every write), naming each, its SQL type and where the
 * migration goes. Undefined when nothing is missing.
 */
export function missingColumnsError(missing: readonly MissingColumns[], { migrations, sqlTypes }: BackendSchema): Error | undefined {
  if (missing.length === 0) return undefined;
  const what = missing.map(({ table, columns, absent }) => {
    if (absent) return `there is no table ${table.table} for ${table.read}`;
    const each = columns.map(({ property, column, type, read, written }) => {
      const schemas = [...(read ? [table.read] : []), ...(written && table.written ? [table.written] : [])];
      return `${schemas.map((schema) => `${schema}.${property}`).join(' and ')} (column ${quoted(column)} ${sqlTypes[type]})`;
    });
    return `table ${table.table} has no column for ${each.join(', ')}`;
  });
  const count = missing.reduce((sum, { columns, absent }) => sum + (absent ? 1 : columns.length), 0);
  return new Error(
    `${what.join('; ')} of openapi.yaml: add ${count === 1 ? 'it' : 'them'} in a new migration in ${migrations} ` +
      '(`npm run generate` writes it; docs/adding-a-field.md)',
  );
}
