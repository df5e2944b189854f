import { describe, expect, it } from 'vitest';
import { createStoreOrder } from '../../generated/handlers/create-store-order.js';
import { deleteStoreOrder } from '../../generated/handlers/delete-store-order.js';
import { getStoreOrder } from '../../generated/handlers/get-store-order.js';
import { listStoreOrders } from '../../generated/handlers/list-store-orders.js';
import { backends, sqliteBackend } from '../support/backends.js';
import { operationRequest } from '../support/operation-request.js';
import { openTestStorage } from '../support/test-app.js';

// The handlers `npm run generate` writes for the operations marked with a CRUD x-storage, without
// Express: what they return, and the errors they raise.
const clock = () => new Date('2030-01-15T00:00:00Z');

describe.each(backends)('the generated store order handlers [$name]', (backend) => {
  it('create answers 201 with the order and its Location; get, list and delete find it', async () => {
    const storage = await openTestStorage(backend);
    const pet = await storage.createPet({ name: 'Rex', categoryId: 3 });
    const deps = { storage, basePath: '/v1', clock };
    const created = await createStoreOrder(deps)(operationRequest({ body: { petId: pet.id, quantity: 3 } }));
    const order = { id: 1, petId: pet.id, quantity: 3, status: 'placed' };
    expect(created).toEqual({ status: 201, body: order, headers: { Location: '/v1/store/orders/1' } });
    expect(await getStoreOrder(deps)(operationRequest({ path: { orderId: 1 } }))).toEqual({ status: 200, body: order });
    expect(await listStoreOrders(deps)(operationRequest({ query: { limit: 20 } }))).toEqual({ status: 200, body: [order] });
    expect(await deleteStoreOrder(deps)(operationRequest({ path: { orderId: 1 } }))).toEqual({ status: 204 });
  });

  it('raise the documented errors: order_not_found, order_pet_not_found, and the rules', async () => {
    const storage = await openTestStorage(backend);
    const deps = { storage, basePath: '/v1', clock };
    const get = (async () => getStoreOrder(deps)(operationRequest({ path: { orderId: 7 } })))();
    await expect(get).rejects.toMatchObject({ code: 'order_not_found', status: 404, message: 'No order with id 7.' });
    await expect(deleteStoreOrder(deps)(operationRequest({ path: { orderId: 7 } }))).rejects.toMatchObject({ code: 'order_not_found' });
    await expect(createStoreOrder(deps)(operationRequest({ body: { petId: 5, quantity: 1 } }))).rejects.toMatchObject({
      code: 'order_pet_not_found',
      status: 422,
    });
    await expect(
      createStoreOrder(deps)(operationRequest({ body: { petId: 5, quantity: 1, shipDate: '2030-01-14' } })),
    ).rejects.toMatchObject({ code: 'ship_date_in_past' });
  });
});

describe('the generated read handlers on SQLite', () => {
  it('answer at once, without a promise, as the store does', async () => {
    const storage = await openTestStorage(sqliteBackend);
    const deps = { storage, basePath: '/v1' };
    expect(listStoreOrders(deps)(operationRequest({ query: { limit: 20 } }))).toEqual({ status: 200, body: [] });
    expect(() => getStoreOrder(deps)(operationRequest({ path: { orderId: 1 } }))).toThrow('No order with id 1.');
  });
});
