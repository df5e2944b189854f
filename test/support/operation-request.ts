import type { OperationId, OperationRequest } from '../../src/handlers/operation.js';
import type { Principal } from '../../src/storage/storage.js';

export const PRINCIPAL: Principal = { keyId: 1, accountId: 1, accountName: 'tester' };

/** A handler's request as the adapter would build it, for unit tests that run without Express. */
export function operationRequest<K extends OperationId>(parts: Partial<OperationRequest<K>>): OperationRequest<K> {
  return { path: {}, query: {}, headers: {}, body: undefined, principal: PRINCIPAL, ...parts } as OperationRequest<K>;
}
