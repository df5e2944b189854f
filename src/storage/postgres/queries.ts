import type pg from 'pg';
import { guarded, isUnavailable } from './unavailable.js';

/**
 * A statement of statements.ts. A named one is parsed once per connection, and PostgreSQL may plan it
 * once for all values; an unnamed one is planned on every run, for its values.
 */
export interface Statement {
  readonly name?: string;
  readonly text: string;
}

/** Where statements run: any of the pool's connections, or the one of a transaction. */
export interface Session {
  /** Rows as objects, by column name. */
  rows<R extends pg.QueryResultRow>(statement: Statement, values?: unknown[]): Promise<R[]>;
  /** Rows as arrays, in column order (the pets' rows: see pet-table.ts). */
  arrays<R extends unknown[]>(statement: Statement, values?: unknown[]): Promise<R[]>;
}

function sessionOn(queryable: pg.Pool | pg.PoolClient): Session {
  return {
    rows: async <R extends pg.QueryResultRow>(statement: Statement, values: unknown[] = []) =>
      (await queryable.query<R>({ ...statement, values })).rows,
    arrays: async <R extends unknown[]>(statement: Statement, values: unknown[] = []) =>
      (await queryable.query<R>({ ...statement, values, rowMode: 'array' })).rows,
  };
}

/** Every query of the backend goes through here, so that an unreachable database always surfaces as 503. */
export class Queries implements Session {
  private readonly onPool: Session;

  constructor(private readonly pool: pg.Pool) {
    this.onPool = sessionOn(pool);
  }

  rows<R extends pg.QueryResultRow>(statement: Statement, values?: unknown[]): Promise<R[]> {
    return guarded(() => this.onPool.rows<R>(statement, values));
  }

  arrays<R extends unknown[]>(statement: Statement, values?: unknown[]): Promise<R[]> {
    return guarded(() => this.onPool.arrays<R>(statement, values));
  }

  /**
   * `work` in a transaction on one connection: committed when it returns, rolled back when it throws.
   * `opening`, a statement without parameters, travels with BEGIN (one round trip); work gets its rows.
   */
  transaction<T, Opening extends pg.QueryResultRow = pg.QueryResultRow>(
    opening: string,
    work: (session: Session, openingRows: Opening[]) => Promise<T>,
  ): Promise<T> {
    return guarded(async () => {
      const client = await this.pool.connect();
      let broken: Error | undefined;
      try {
        const [, opened] = (await client.query(`BEGIN; ${opening}`)) as unknown as [pg.QueryResult, pg.QueryResult<Opening>];
        try {
          const result = await work(sessionOn(client), opened.rows);
          await client.query('COMMIT');
          return result;
        } catch (error) {
          await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
          throw error;
        }
      } catch (error) {
        if (isUnavailable(error)) broken ??= error as Error;
        throw error;
      } finally {
        // A connection that failed is dropped from the pool rather than reused.
        client.release(broken);
      }
    });
  }
}
