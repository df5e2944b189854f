import type { Middleware } from 'openapi-fetch';
import { IDEMPOTENCY_KEY_OPERATIONS } from '../../../generated/contract.js';

const KEYED_OPERATIONS = new Set<string>(IDEMPOTENCY_KEY_OPERATIONS.map(({ method, path }) => `${method} ${path}`));

/** A key for one logical call: a random UUID (crypto.randomUUID: browsers, Deno, Bun, Node), as the draft's String. */
export function newIdempotencyKey(): string {
  return `"${crypto.randomUUID()}"`;
}

/**
 * Gives each call of an operation that takes an `Idempotency-Key` (createPet; the list is generated
 * from openapi.yaml) a key of its own, unless the caller sent one. Every retry of the call sends the
 * same request, so the same key (see retry.ts).
 */
export const idempotencyKeys: Middleware = {
  onRequest({ request, schemaPath }) {
    if (KEYED_OPERATIONS.has(`${request.method} ${schemaPath}`) && !request.headers.has('Idempotency-Key')) {
      request.headers.set('Idempotency-Key', newIdempotencyKey());
    }
    return undefined;
  },
};
