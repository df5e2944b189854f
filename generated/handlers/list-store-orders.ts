// Generated from openapi.yaml by `npm run generate`: do not edit. CI fails when it is stale.
import { decodeCursor, encodeCursor, nextPageLink } from '../../src/handlers/paging.js';
import { operationPath } from '../../src/handlers/links.js';
import type { HandlerDeps } from '../../src/handlers/deps.js';
import type { OperationHandler, OperationResult } from '../../src/handlers/operation.js';
import { ORDER_TABLE, orderFromRow, type OrderRow } from '../tables.js';

/** listStoreOrders: a page of Order in key order, with a link to the next page exactly when there is one. */
export function listStoreOrders({ storage, basePath }: Pick<HandlerDeps, 'storage' | 'basePath'>): OperationHandler<'listStoreOrders'> {
  const path = operationPath(basePath, 'listStoreOrders');
  return ({ query }) => {
    const { limit } = query;
    const filters = { status: query['status'] };
    // One row more than asked tells whether a next page exists.
    const rows = storage.listRows<OrderRow>(ORDER_TABLE, {
      limit: limit + 1,
      ...(query.cursor !== undefined && { afterKey: decodeCursor(query.cursor) }),
      filters,
    });
    const page = (found: OrderRow[]): OperationResult<'listStoreOrders'> => {
      const items = found.map(orderFromRow);
      if (items.length <= limit) return { status: 200, body: items };
      items.length = limit;
      return { status: 200, body: items, headers: { Link: nextPageLink(path, { limit, ...filters }, encodeCursor(items[limit - 1]!.id)) } };
    };
    return rows instanceof Promise ? rows.then(page) : page(rows);
  };
}
