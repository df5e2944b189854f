import Database from 'better-sqlite3';
import { describe } from 'vitest';
import { SqliteResources } from '../../../src/storage/sqlite/resources.js';
import { sqliteBackend } from '../../support/backends.js';
import { resourceStoreContract, ownersContract, restrictTables } from '../../support/resource-store.js';
import { shapeTablesSql, shapesContract } from '../../support/stored-shapes.js';
import { openTestStorage } from '../../support/test-app.js';

// On a file, so that writes go through the writer thread and its batches, as the server's do.
describe('the generic resource store on SQLite', () => {
  resourceStoreContract(() => openTestStorage(sqliteBackend));
  // The statements the writer thread runs, on a connection set up as its is (foreign keys on).
  ownersContract(async () => {
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    for (const sql of restrictTables('INTEGER PRIMARY KEY')) db.exec(sql);
    const resources = new SqliteResources(db);
    return {
      insertRow: (table, values) => resources.insert(table, values),
      listRows: (table, page) => resources.list(table, page),
      updateRow: (table, key, patch, expected) => resources.update(table, key, patch, expected),
      deleteRow: (table, key, expected) => resources.delete(table, key, expected),
    };
  });
  // A table of every column shape, made by the DDL of its generated migration.
  shapesContract(async () => {
    const db = new Database(':memory:');
    db.exec(shapeTablesSql('sqlite'));
    const resources = new SqliteResources(db);
    return {
      insertRow: (table, values) => resources.insert(table, values),
      getRow: (table, key) => resources.get(table, key),
      listRows: (table, page) => resources.list(table, page),
      updateRow: (table, key, patch) => resources.update(table, key, patch),
    };
  });
});
