// Generated from openapi.yaml by `npm run generate`: do not edit. CI fails when it is stale.
// Each operation marked `x-storage: query` has its query in ./<operationId in kebab case>.ts,
// exporting a function named after the operationId that makes the query; `npm run generate` writes
// one that rejects with QueryNotWrittenError (answered 501) for an operation that has none.
import type Database from 'better-sqlite3';
import type { OperationQueries } from '../../../../generated/queries.js';

/** The queries of the operations marked `x-storage: query`, on this backend. */
export function sqliteOperations(_db: Database.Database): OperationQueries {
  return {};
}
