import { describe, expect, it } from 'vitest';
import { Queries } from '../../../src/storage/postgres/queries.js';
import { postgresBackend } from '../../support/backends.js';
import { testPool } from '../../support/postgres-storage.js';

async function queriesOnFreshTable(): Promise<Queries> {
  const pool = testPool(await postgresBackend.createDatabaseUrl());
  await pool.query('CREATE TABLE t (n integer PRIMARY KEY)');
  return new Queries(pool);
}

const count = { name: 'count', text: 'SELECT count(*)::int AS n FROM t' };
const insert = { text: 'INSERT INTO t (n) VALUES ($1) RETURNING n' };

describe('PostgreSQL queries', () => {
  it('returns rows as objects or as arrays, for named and unnamed statements alike', async () => {
    const queries = await queriesOnFreshTable();
    expect(await queries.rows(insert, [1])).toEqual([{ n: 1 }]);
    expect(await queries.arrays(insert, [2])).toEqual([[2]]);
    expect(await queries.rows(count)).toEqual([{ n: 2 }]);
    expect(await queries.arrays(count)).toEqual([[2]]);
  });

  it('commits a transaction whose work returns, with the opening statement’s rows handed to it', async () => {
    const queries = await queriesOnFreshTable();
    const result = await queries.transaction<number, { opened: number }>('SELECT 7 AS opened', async (session, [opening]) => {
      await session.rows(insert, [opening!.opened]);
      return (await session.arrays<[number]>(count))[0]![0];
    });
    expect(result).toBe(1);
    expect(await queries.rows(count)).toEqual([{ n: 1 }]);
  });

  it('rolls back a transaction whose work throws, and throws what it threw', async () => {
    const queries = await queriesOnFreshTable();
    const failure = new Error('work failed');
    await expect(
      queries.transaction('SELECT 1', async (session) => {
        await session.rows(insert, [1]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await queries.rows(count)).toEqual([{ n: 0 }]);
  });
});
