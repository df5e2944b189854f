import { describe, expect, it } from 'vitest';
import { listAllPets, listAllStoreOrders, PetStoreApiError, type Order } from '../src/index.js';
import { clientApiPerTest, collect, seedThroughClient } from './support/client-api.js';
import { backends, contractCheckingFetch, PET_STATUSES } from './support/pet-store.js';

describe.each(backends)('listAllPets against the server process ($name)', (backend) => {
  const api = clientApiPerTest(backend);
  const seed = (count: number) => seedThroughClient(api().client(), count);

  it('listAllPets yields 45 pets once each in id order, following Link rel="next" unchanged', async () => {
    const { client, requested, server } = api();
    const pets = await seed(45);
    requested.length = 0;

    expect(await collect(listAllPets(client(), { pageSize: 10 }))).toEqual(pets);
    expect(requested).toHaveLength(5);
    expect(requested[0]).toBe(`${server.baseUrl}/pets?limit=10`);
    expect(requested.slice(1).every((url) => /\/v1\/pets\?limit=10&cursor=[A-Za-z0-9_-]+$/.test(url))).toBe(true);

    requested.length = 0;
    expect(await collect(listAllPets(client()))).toEqual(pets);
    expect(requested).toHaveLength(3); // the server's default page of 20
  });

  it('listAllStoreOrders yields every order once, in id order, following the next links; by status too', async () => {
    const { client, requested } = api();
    const [pet] = await seed(1);
    const orders: Order[] = [];
    for (let quantity = 1; quantity <= 5; quantity += 1) {
      const { data } = await client().POST('/store/orders', { body: { petId: pet!.id, quantity } });
      orders.push(data!);
    }
    requested.length = 0;
    expect(await collect(listAllStoreOrders(client(), { pageSize: 2 }))).toEqual(orders);
    expect(requested).toHaveLength(3);
    expect(await collect(listAllStoreOrders(client(), { status: 'placed', pageSize: 2 }))).toEqual(orders);
    expect(await collect(listAllStoreOrders(client(), { status: 'delivered' }))).toEqual([]);
  });

  it.each(PET_STATUSES)('listAllPets with status %s yields exactly those pets, in id order', async (status) => {
    const { client, requested } = api();
    const pets = await seed(45);
    const expected = pets.filter((pet) => pet.status === status);
    requested.length = 0;
    expect(await collect(listAllPets(client(), { status, pageSize: 4 }))).toEqual(expected);
    expect(requested).toHaveLength(Math.ceil(expected.length / 4));
    expect(requested.slice(1).every((url) => url.includes(`status=${status}&cursor=`))).toBe(true);
  });

  it('listAllPets refuses a next link to another origin, which would receive the API key', async () => {
    await seed(2);
    const sent: string[] = [];
    // The server's real, checked response, with its next link pointed elsewhere.
    const redirectingFetch = async (request: Request) => {
      sent.push(request.url);
      const response = await contractCheckingFetch(request);
      const headers = new Headers(response.headers);
      headers.set('Link', '<https://elsewhere.example/v1/pets?limit=1&cursor=cDE6MQ>; rel="next"');
      return new Response(response.body, { status: response.status, headers });
    };
    const pets = listAllPets(api().client({ fetch: redirectingFetch }), { pageSize: 1 });
    expect((await pets.next()).value).toMatchObject({ id: 1 });
    await expect(pets.next()).rejects.toThrow('refusing to follow a next link to another origin: https://elsewhere.example/v1/pets');
    expect(sent).toEqual([`${api().server.baseUrl}/pets?limit=1`]);
  });

  it('listAllPets throws PetStoreApiError carrying the Error body', async () => {
    const wrongKey = listAllPets(api().client({ apiKey: 'psk_not-a-key' }));
    const thrown = await wrongKey.next().catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(PetStoreApiError);
    expect(thrown).toMatchObject({ status: 401, error: { code: 'invalid_api_key', status: 401 } });

    await expect(collect(listAllPets(api().client(), { pageSize: 0 }))).rejects.toMatchObject({
      name: 'PetStoreApiError',
      status: 400,
      error: { code: 'validation_failed', message: 'Invalid request: query.limit must be >= 1.' },
    });
  });
});
