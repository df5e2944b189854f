import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
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
    for (const [name, statement] of [...Object.entries(prepareReads(db)), ...Object.entries(prepareWrites(db))]) {
      byText.set(statement.source, (byText.get(statement.source) ?? new Set()).add(name));
    }
    const repeated = [...byText.values()].filter((names) => names.size > 1).map((names) => [...names]);
    expect(repeated).toEqual([]);
  });

  it('serve the status-filtered page in id order from the index', () => {
    // The storage's own statement.
    const page = prepareReads(db).listPetsByStatus.source;
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${page}`).all('sold', 5, 21) as Array<{ detail: string }>;
    expect(plan.map((row) => row.detail).join('\n')).toMatch(/USING INDEX pets_status_id \(status=\? AND id>\?\)/);
    expect(plan.map((row) => row.detail).join('\n')).not.toMatch(/TEMP B-TREE/);
  });
});
