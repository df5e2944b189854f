import { apiError } from '../errors/api-error.js';
import { operationName } from './links.js';
import type { OperationHandler } from './operation.js';

/** Named by the interface with no behaviour yet: answers 501 until the spec defines it. */
export function listStoreOrders({ basePath }: { basePath: string }): OperationHandler<'listStoreOrders'> {
  const operation = operationName(basePath, 'listStoreOrders');
  return () => Promise.reject(apiError('not_implemented', { operation }));
}
