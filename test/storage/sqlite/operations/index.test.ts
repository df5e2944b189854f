import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { QUERY_OPERATIONS } from '../../../../generated/queries.js';
import { migrateSqlite } from '../../../../src/storage/sqlite/migrate.js';
import { sqliteOperations } from '../../../../src/storage/sqlite/operations/index.js';

describe('the SQLite queries of the operations marked x-storage: query', () => {
  it('has one for each such operation of openapi.yaml, and nothing else', async () => {
    const db = new Database(':memory:');
    await migrateSqlite(db);
    const operations = sqliteOperations(db);
    expect(Object.keys(operations).sort()).toEqual([...QUERY_OPERATIONS].sort());
    for (const query of Object.values(operations)) expect(query).toBeTypeOf('function');
    db.close();
  });
});
