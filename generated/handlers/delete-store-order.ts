// Generated from openapi.yaml by `npm run generate`: do not edit. CI fails when it is stale.
import { apiError } from '../../src/errors/api-error.js';
import type { HandlerDeps } from '../../src/handlers/deps.js';
import type { OperationHandler } from '../../src/handlers/operation.js';
import { ORDER_TABLE } from '../tables.js';

/** deleteStoreOrder: removes one Order by its key (its key is never reused), or order_not_found. */
export function deleteStoreOrder({ storage }: Pick<HandlerDeps, 'storage'>): OperationHandler<'deleteStoreOrder'> {
  return async ({ path: { orderId } }) => {
    const outcome = await storage.deleteRow(ORDER_TABLE, orderId);
    if (outcome.kind === 'not_found') throw apiError('order_not_found', { orderId });
    return { status: 204 };
  };
}
