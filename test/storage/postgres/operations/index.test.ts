import type pg from 'pg';
import { describe, expect, it } from 'vitest';
import { QUERY_OPERATIONS } from '../../../../generated/queries.js';
import { postgresOperations } from '../../../../src/storage/postgres/operations/index.js';
import { Queries } from '../../../../src/storage/postgres/queries.js';

describe('the PostgreSQL queries of the operations marked x-storage: query', () => {
  it('has one for each such operation of openapi.yaml, and nothing else', () => {
    // Making the queries runs nothing: their statements are sent when they run.
    const operations = postgresOperations(new Queries({} as pg.Pool));
    expect(Object.keys(operations).sort()).toEqual([...QUERY_OPERATIONS].sort());
    for (const query of Object.values(operations)) expect(query).toBeTypeOf('function');
  });
});
