import { beforeEach, describe, expect, it } from 'vitest';
import type { components } from '../../../generated/openapi.js';
import type { ErrorBody } from '../../../src/errors/api-error.js';
import type { Pet } from '../../../src/storage/pets/pets.js';
import { backends } from '../../support/backends.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

type Order = components['schemas']['Order'];

// The store orders' operations, generated whole from openapi.yaml (x-storage), over HTTP: every
// response is held to the spec by t.api.
describe.each(backends)('store orders [$name]', (backend) => {
  let t: TestApi;
  let rex: Pet;
  beforeEach(async () => {
    t = await createTestApi({ backend, clock: () => new Date('2030-01-15T12:00:00Z') });
    rex = await t.storage.createPet({ name: 'Rex', categoryId: 3 });
  });

  const place = (body: object) => t.api.post('/v1/store/orders').set(t.auth).send(body);

  it('places an order (201, Location, status placed), reads it, lists it, deletes it; then its id answers 404', async () => {
    const created = await place({ petId: rex.id, quantity: 2, shipDate: '2030-01-15' }).expect(201);
    const order = created.body as Order;
    expect(order).toEqual({ id: 1, petId: rex.id, quantity: 2, shipDate: '2030-01-15', status: 'placed' });
    expect(created.headers['location']).toBe('/v1/store/orders/1');
    expect((await t.api.get('/v1/store/orders/1').set(t.auth).expect(200)).body).toEqual(order);
    expect((await t.api.get('/v1/store/orders').set(t.auth).expect(200)).body).toEqual([order]);
    const withoutDate = (await place({ petId: rex.id, quantity: 1 }).expect(201)).body as Order;
    expect(withoutDate).toEqual({ id: 2, petId: rex.id, quantity: 1, status: 'placed' });

    await t.api.delete('/v1/store/orders/1').set(t.auth).expect(204);
    const gone = { code: 'order_not_found', status: 404, message: 'No order with id 1.' };
    expect((await t.api.get('/v1/store/orders/1').set(t.auth).expect(404)).body).toEqual(gone);
    expect((await t.api.delete('/v1/store/orders/1').set(t.auth).expect(404)).body).toEqual(gone);
    expect((await t.api.get('/v1/store/orders').set(t.auth).expect(200)).body).toEqual([withoutDate]);
    // Never reused, even for the highest id.
    await t.api.delete('/v1/store/orders/2').set(t.auth).expect(204);
    expect(((await place({ petId: rex.id, quantity: 1 }).expect(201)).body as Order).id).toBe(3);
  });

  it('refuses an order for a pet that does not exist with 422 order_pet_not_found, storing nothing', async () => {
    const res = await place({ petId: 99, quantity: 1 }).expect(422);
    expect(res.body).toEqual({
      code: 'order_pet_not_found',
      status: 422,
      message: 'No pet with id 99: an order is for an animal of the catalogue.',
    });
    expect((await t.api.get('/v1/store/orders').set(t.auth).expect(200)).body).toEqual([]);
  });

  it('decides each order of a batch alone: those for absent pets fail, the others are stored', async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => place({ petId: i % 2 === 0 ? rex.id : 1000 + i, quantity: 1 })));
    expect(answers.map((res) => res.status)).toEqual(Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? 201 : 422)));
    expect(((await t.api.get('/v1/store/orders').set(t.auth).expect(200)).body as Order[]).length).toBe(5);
  });

  it('deletes the orders of a pet with the pet (ON DELETE CASCADE): they answer 404, never an orphan', async () => {
    const tom = await t.storage.createPet({ name: 'Tom', categoryId: 4 });
    await place({ petId: rex.id, quantity: 1 }).expect(201);
    const kept = (await place({ petId: tom.id, quantity: 1 }).expect(201)).body as Order;
    await t.api.delete(`/v1/pets/${rex.id}`).set(t.auth).expect(204);
    await t.api.get('/v1/store/orders/1').set(t.auth).expect(404);
    expect((await t.api.get('/v1/store/orders').set(t.auth).expect(200)).body).toEqual([kept]);
  });

  it('refuses what the server sets, a quantity below 1, and a day not on the calendar with 400', async () => {
    for (const body of [
      { petId: rex.id, quantity: 1, status: 'placed' },
      { petId: rex.id, quantity: 1, id: 7 },
      { petId: rex.id, quantity: 0 },
      { petId: rex.id, quantity: 1, shipDate: '2030-02-30' },
      { petId: rex.id, quantity: 1, shipDate: '2030-13-01' },
      { petId: rex.id, quantity: 1, shipDate: '2030-01-15T00:00:00Z' },
      { quantity: 1 },
    ]) {
      const res = await place(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect((res.body as ErrorBody).code).toBe('validation_failed');
    }
    expect((await t.api.get('/v1/store/orders').set(t.auth).expect(200)).body).toEqual([]);
  });

  it('refuses a ship date before today (UTC) with 422 ship_date_in_past (the business rule of src/rules/order.ts)', async () => {
    const res = await place({ petId: rex.id, quantity: 1, shipDate: '2030-01-14' }).expect(422);
    expect(res.body).toEqual({
      code: 'ship_date_in_past',
      status: 422,
      message: 'shipDate 2030-01-14 is in the past: send today (UTC) or a later date.',
    });
  });

  it('lists a page at a time with Link rel="next", keeping the status filter', async () => {
    for (let i = 0; i < 3; i += 1) await place({ petId: rex.id, quantity: i + 1 }).expect(201);
    const first = await t.api.get('/v1/store/orders?limit=2&status=placed').set(t.auth).expect(200);
    expect((first.body as Order[]).map((order) => order.id)).toEqual([1, 2]);
    const next = /^<([^>]+)>; rel="next"$/.exec(first.headers['link'] as string)![1]!;
    expect(next).toMatch(/^\/v1\/store\/orders\?limit=2&status=placed&cursor=/);
    const second = await t.api.get(next).set(t.auth).expect(200);
    expect((second.body as Order[]).map((order) => order.id)).toEqual([3]);
    expect(second.headers['link']).toBeUndefined();
    expect((await t.api.get('/v1/store/orders?status=delivered').set(t.auth).expect(200)).body).toEqual([]);
    expect(((await t.api.get('/v1/store/orders?cursor=bm9wZQ').set(t.auth).expect(400)).body as ErrorBody).code).toBe('invalid_cursor');
  });
});
