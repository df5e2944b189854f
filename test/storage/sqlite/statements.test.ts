import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { SQLITE_STORES } from '../../../src/storage/sqlite/hand-written-stores.js';
import { migrateSqlite } from '../../../src/storage/sqlite/migrate.js';
import { configureConnection, prepareReads, prepareWrites } from '../../../src/storage/sqlite/statements.js';

describe('the SQLite statements', () => {
  let db: Database.Database;
  beforeEach(async () => {
    db = new Database(':memory:');
    configureConnection(db);
    await migrateSqlite(db);
  });

  it('write each statement once: one prepared on both connections is the same one', () => {
    const byText = new Map<string, Set<string>>();
    const { stores, ...writes } = prepareWrites(db);
    for (const [name, statement] of [...Object.entries(prepareReads(db)), ...Object.entries(writes)]) {
      byText.set(statement.source, (byText.get(statement.source) ?? new Set()).add(name));
    }
    expect(Object.keys(stores)).toEqual(Object.keys(SQLITE_STORES));
    const repeated = [...byText.values()].filter((names) => names.size > 1).map((names) => [...names]);
    expect(repeated).toEqual([]);
  });
});
