import type { OpenApiDocument, SchemaObject } from './spec.js';

export type { ErrorCode } from '../errors/registry.js';

/** A schema that is a table of error codes: a oneOf of string consts, with x-http-status on them. */
function isErrorCodeTable(schema: SchemaObject | undefined): boolean {
  const variants = schema?.['oneOf'];
  return (
    Array.isArray(variants) &&
    variants.length > 0 &&
    (variants as SchemaObject[]).every((variant) => typeof variant['const'] === 'string') &&
    (variants as SchemaObject[]).some((variant) => 'x-http-status' in variant)
  );
}

/**
 * Reads the document's table of stable error codes: the component schema that is a oneOf of consts,
 * each with its HTTP status in `x-http-status` (the pet store's `ErrorCode`), found by its shape,
 * not its name, so that the spec is the only place a code's status is stated. A document without one
 * has no codes of its own: the stack's codes then keep their default statuses (src/errors/stack-codes.ts).
 */
export function readErrorCodes(document: OpenApiDocument): ReadonlyMap<string, number> {
  const tables = Object.entries(document.components?.schemas ?? {}).filter(([, schema]) => isErrorCodeTable(schema));
  if (tables.length > 1)
    throw new Error(`openapi.yaml: ${tables.map(([name]) => name).join(' and ')} are both error-code tables (x-http-status); keep one`);
  const table = new Map<string, number>();
  for (const variant of (tables[0]?.[1]['oneOf'] ?? []) as SchemaObject[]) {
    const code = variant['const'] as string;
    const status = variant['x-http-status'];
    if (!Number.isInteger(status) || (status as number) < 400 || (status as number) > 599) {
      throw new Error(`openapi.yaml: error code ${JSON.stringify(code)} needs an x-http-status from 400 to 599`);
    }
    table.set(code, status as number);
  }
  return table;
}
