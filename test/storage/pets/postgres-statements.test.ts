import { describe, expect, it } from 'vitest';
import * as petStatements from '../../../src/storage/pets/postgres-statements.js';
import { LIST_PETS_BY_STATUS } from '../../../src/storage/pets/postgres-statements.js';
import * as statements from '../../../src/storage/postgres/statements.js';
import { expectEachOnce, openPostgres, sqlClient } from '../../support/postgres-storage.js';

describe("the pets' PostgreSQL statements", () => {
  it("are each written once, under a name of its own, none of them the backend's", () => {
    expectEachOnce([statements, petStatements]);
  });

  it('serve a page of a rare status in id order from the status index', async () => {
    const { url } = await openPostgres();
    const client = await sqlClient(url);
    await client.query(
      "INSERT INTO pets (name, category_id, status) SELECT 'p' || n, 1, CASE WHEN n % 1000 = 0 THEN 'sold' ELSE 'available' END FROM generate_series(1, 20000) n",
    );
    await client.query('ANALYZE pets');
    // The storage's own statement, planned for its values as the storage runs it (unnamed).
    expect(LIST_PETS_BY_STATUS.name).toBeUndefined();
    await client.query(`PREPARE page(text, bigint, int) AS ${LIST_PETS_BY_STATUS.text}`);
    await client.query('SET plan_cache_mode = force_custom_plan');
    const { rows } = await client.query<{ 'QUERY PLAN': string }>("EXPLAIN EXECUTE page('sold', 5, 21)");
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    expect(plan).toMatch(/Index (Only )?Scan using pets_status_id/);
    expect(plan).not.toMatch(/Sort|Filter/);
    await client.query('VACUUM pets');
    const vacuumed = await client.query<{ 'QUERY PLAN': string }>("EXPLAIN EXECUTE page('sold', 5, 21)");
    expect(vacuumed.rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/Index Only Scan using pets_status_id/);
  });
});
