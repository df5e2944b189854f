import { describe, expect, it } from 'vitest';
import { listStoreOrders } from '../../src/handlers/list-store-orders.js';
import { operationRequest } from '../support/operation-request.js';

describe('listStoreOrders handler', () => {
  it('raises not_implemented, naming the operation by its method and path', async () => {
    await expect(listStoreOrders({ basePath: '/v1' })(operationRequest({}))).rejects.toMatchObject({
      code: 'not_implemented',
      status: 501,
      message: 'GET /v1/store/orders is not implemented yet.',
    });
  });
});
