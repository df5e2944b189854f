// Generated from openapi.yaml by `npm run generate`: do not edit. CI fails when it is stale.
import { apiError } from '../../src/errors/api-error.js';
import type { HandlerDeps } from '../../src/handlers/deps.js';
import { operationPath } from '../../src/handlers/links.js';
import type { OperationHandler, OperationResult } from '../../src/handlers/operation.js';
import { rules } from '../../src/rules/order.js';
import { ORDER_TABLE, orderFromRow, type OrderRow, newOrderValues } from '../tables.js';

/**
 * createStoreOrder: stores a NewOrder as a Order, after its business rules (src/rules/order.ts), and answers
 * it with its Location. A reference to a row that does not exist is refused by the database, in the insert's
 * transaction, with the error openapi.yaml declares for it.
 */
export function createStoreOrder({
  storage,
  basePath,
  clock,
}: Pick<HandlerDeps, 'storage' | 'basePath' | 'clock'>): OperationHandler<'createStoreOrder'> {
  const answer = (row: OrderRow): OperationResult<'createStoreOrder'> => {
    const created = orderFromRow(row);
    return { status: 201, body: created, headers: { Location: operationPath(basePath, 'getStoreOrder', { orderId: created.id }) } };
  };
  return async ({ body, principal }) => {
    const input = rules.beforeCreate ? await rules.beforeCreate(body, { now: clock(), principal }) : body;
    const outcome = await storage.insertRow<OrderRow>(ORDER_TABLE, newOrderValues(input));
    if (outcome.kind === 'missing_reference' || outcome.kind === 'duplicate_key') {
      if (outcome.kind === 'missing_reference' && outcome.property === 'petId')
        throw apiError('order_pet_not_found', { petId: input.petId });
      throw new Error(`the insert was refused: ${outcome.kind}`);
    }
    return answer(outcome.row);
  };
}
