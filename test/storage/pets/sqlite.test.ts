import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { preparePetReads, preparePetWrites } from '../../../src/storage/pets/sqlite.js';
import { migrateSqlite } from '../../../src/storage/sqlite/migrate.js';
import { configureConnection, prepareReads, prepareWrites } from '../../../src/storage/sqlite/statements.js';

describe("the pets' SQLite statements", () => {
  let db: Database.Database;
  beforeEach(async () => {
    db = new Database(':memory:');
    configureConnection(db);
    await migrateSqlite(db);
  });

  it("are each written once, none of them the backend's", () => {
    const { stores: _stores, ...writes } = prepareWrites(db);
    const all = [prepareReads(db), writes, preparePetReads(db), preparePetWrites(db)].flatMap((statements) => Object.entries(statements));
    // One prepared on both connections has one name.
    const byText = new Map<string, Set<string>>();
    for (const [name, { source }] of all) byText.set(source, (byText.get(source) ?? new Set()).add(name));
    expect([...byText.values()].filter((names) => names.size > 1)).toEqual([]);
  });

  it('serve the status-filtered page in id order from the index', () => {
    // The storage's own statement.
    const page = preparePetReads(db).listPetsByStatus.source;
    const plan = db.prepare(`EXPLAIN QUERY PLAN ${page}`).all('sold', 5, 21) as Array<{ detail: string }>;
    expect(plan.map((row) => row.detail).join('\n')).toMatch(/USING INDEX pets_status_id \(status=\? AND id>\?\)/);
    expect(plan.map((row) => row.detail).join('\n')).not.toMatch(/TEMP B-TREE/);
  });
});
