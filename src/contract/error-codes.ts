import type { components } from '../../generated/openapi.js';
import type { OpenApiDocument, SchemaObject } from './spec.js';

export type ErrorCode = components['schemas']['ErrorCode'];

/**
 * Reads the table of stable error codes from `components.schemas.ErrorCode` (one `const` per code,
 * its HTTP status in `x-http-status`), so that the spec is the only place a code's status is stated.
 */
export function readErrorCodes(document: OpenApiDocument): ReadonlyMap<ErrorCode, number> {
  const schema = document.components.schemas['ErrorCode'];
  const variants = schema?.['oneOf'];
  if (!Array.isArray(variants)) throw new Error('openapi.yaml: components.schemas.ErrorCode must be a oneOf of consts');
  const table = new Map<ErrorCode, number>();
  for (const variant of variants as SchemaObject[]) {
    const code = variant['const'];
    const status = variant['x-http-status'];
    if (typeof code !== 'string' || !Number.isInteger(status) || (status as number) < 400 || (status as number) > 599) {
      throw new Error(`openapi.yaml: ErrorCode entry ${JSON.stringify(variant)} needs a string const and an x-http-status 4xx/5xx`);
    }
    table.set(code as ErrorCode, status as number);
  }
  return table;
}
