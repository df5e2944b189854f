// Generated from openapi.yaml by `npm run generate`: do not edit. CI fails when it is stale.
/**
 * The storage query of each operation marked `x-storage: query`: the operation's parameters in,
 * what its 2xx response carries out. Each backend implements it in
 * src/storage/<backend>/operations/<operationId in kebab case>.ts.
 */
export type OperationQueries = Record<never, never>;

/** The operations that have a storage query, by operationId. */
export const QUERY_OPERATIONS = [] as const;
