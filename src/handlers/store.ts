import { ApiError } from '../http/api-error.js';
import type { OperationHandler } from './operation-handler.js';

/** Named by the interface with no behaviour yet: answer 501 until the spec defines it. */
export function listStoreOrders(): OperationHandler<'listStoreOrders'> {
  return (req) => {
    throw new ApiError('not_implemented', `${req.method} ${req.baseUrl}${req.path} is not implemented yet.`);
  };
}
