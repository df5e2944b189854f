// Generated from openapi.yaml by `npm run generate`: do not edit. CI fails when it is stale.
import { apiError } from '../../src/errors/api-error.js';
import type { HandlerDeps } from '../../src/handlers/deps.js';
import type { OperationHandler, OperationResult } from '../../src/handlers/operation.js';
import { ORDER_TABLE, orderFromRow, type OrderRow } from '../tables.js';

/** getStoreOrder: one Order by its key, or order_not_found. */
export function getStoreOrder({ storage }: Pick<HandlerDeps, 'storage'>): OperationHandler<'getStoreOrder'> {
  const answer = (orderId: number, row: OrderRow | undefined): OperationResult<'getStoreOrder'> => {
    if (!row) throw apiError('order_not_found', { orderId });
    return { status: 200, body: orderFromRow(row) };
  };
  // Without async: on a backend that answers at once, so does the handler.
  return ({ path: { orderId } }) => {
    const row = storage.getRow<OrderRow>(ORDER_TABLE, orderId);
    return row instanceof Promise ? row.then((found) => answer(orderId, found)) : answer(orderId, row);
  };
}
