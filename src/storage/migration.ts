/**
 * A versioned schema change, applied in order, exactly once, in its own transaction.
 * Never edit a migration that has shipped: add the next one.
 */
export interface Migration {
  version: number;
  name: string;
  sql: string;
}
