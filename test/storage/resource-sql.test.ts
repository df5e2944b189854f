import { describe, expect, it } from 'vitest';
import { ORDER_TABLE, PET_TABLE } from '../../generated/tables.js';
import { deleteSql, getSql, givenFilters, insertSql, listSql, referencedSql, updateSql } from '../../src/storage/resource-sql.js';

const sqlite = () => '?';
const postgres = (position: number) => `$${position}`;

describe('the statements of the generic resource store, from generated/tables.ts', () => {
  it('inserts the written columns and returns the read ones, in order', () => {
    expect(insertSql(ORDER_TABLE, postgres)).toBe(
      'INSERT INTO "orders" ("pet_id", "quantity", "ship_date") VALUES ($1, $2, $3) RETURNING "id", "pet_id", "quantity", "ship_date", "status"',
    );
    expect(insertSql(ORDER_TABLE, sqlite)).toContain('VALUES (?, ?, ?)');
  });

  it('reads and deletes by the key column', () => {
    expect(getSql(ORDER_TABLE, postgres)).toBe('SELECT "id", "pet_id", "quantity", "ship_date", "status" FROM "orders" WHERE "id" = $1');
    expect(deleteSql(PET_TABLE, sqlite)).toBe('DELETE FROM "pets" WHERE "id" = ? RETURNING "id"');
  });

  it('updates each patched column only when the patch has it, then returns the row', () => {
    expect(updateSql(PET_TABLE, postgres)).toBe(
      'UPDATE "pets" SET "name" = CASE WHEN $1 = 1 THEN $2 ELSE "name" END, "category_id" = CASE WHEN $3 = 1 THEN $4 ELSE "category_id" END, ' +
        '"status" = CASE WHEN $5 = 1 THEN $6 ELSE "status" END WHERE "id" = $7 RETURNING "id", "name", "category_id", "status"',
    );
  });

  it('pages in key order, filters first, then the key to start after, then the limit', () => {
    expect(listSql(ORDER_TABLE, ['status'], postgres)).toBe(
      'SELECT "id", "pet_id", "quantity", "ship_date", "status" FROM "orders" WHERE "status" = $1 AND "id" > $2 ORDER BY "id" LIMIT $3',
    );
    expect(listSql(ORDER_TABLE, [], postgres)).toContain('WHERE "id" > $1 ORDER BY "id" LIMIT $2');
    expect(() => listSql(ORDER_TABLE, ['colour'], postgres)).toThrow('table orders has no column for colour to filter on');
  });

  it('keeps only the filters given a value', () => {
    expect(givenFilters({ status: 'placed', petId: undefined })).toEqual({ properties: ['status'], values: ['placed'] });
  });

  it("looks for the row a foreign key names by the referenced table's key", () => {
    expect(referencedSql(ORDER_TABLE.references[0], sqlite)).toBe('SELECT 1 FROM "pets" WHERE "id" = ?');
  });
});
