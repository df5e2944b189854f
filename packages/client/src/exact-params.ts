import type { operations } from './api-types.js';

type ParametersOf<K extends keyof operations> = operations[K]['parameters'];

/** T where every key Shape does not have is `never`: an object with one more key is refused. */
type Exact<Shape, T> = T & { [Key in Exclude<keyof T, keyof Shape>]: never };

/** Each location's parameters exact against the operation's, and no location the operation lacks. */
type ExactParameters<K extends keyof operations, T> = {
  [Where in keyof T]: Where extends keyof ParametersOf<K> ? Exact<NonNullable<ParametersOf<K>[Where]>, T[Where]> : never;
};

/**
 * The parameters of one call of `operationId`, held exactly to the generated types. openapi-fetch
 * infers its parameters generically, so it lets a parameter the spec no longer has through (the
 * request then carries it, and the server refuses it or, worse, ignores it); the client's own
 * helpers build theirs through this, so a renamed or removed parameter fails `tsc` where it is
 * used. Returns `parameters` unchanged. `const T`: inferred from the argument as written, however many
 * operations the spec has (without it, a larger spec made tsc fall back to the constraint).
 */
export function exactParams<K extends keyof operations, const T extends { [Where in keyof ParametersOf<K>]?: ParametersOf<K>[Where] }>(
  _operationId: K,
  parameters: T & ExactParameters<K, T>,
): T {
  return parameters;
}
