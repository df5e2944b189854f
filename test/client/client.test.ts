import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  getPet,
  listAllPets,
  PetStoreApiError,
  type DeprecationNotice,
  type NewPet,
  type Pet,
  type PetStatus,
} from '../../src/client/index.js';
import { backends } from '../support/backends.js';
import { clientApiPerTest } from '../support/client-api.js';
import { contractCheckingFetch } from '../support/contract-fetch.js';

const STATUSES: (PetStatus | undefined)[] = ['available', 'pending', 'sold', undefined];

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe.each(backends)('the typed client against the server process ($name)', (backend) => {
  const api = clientApiPerTest(backend);

  async function seed(count: number): Promise<Pet[]> {
    const client = api().client();
    const pets: Pet[] = [];
    for (let i = 0; i < count; i += 1) {
      const status = STATUSES[i % STATUSES.length];
      const { data, error } = await client.POST('/pets', {
        body: { name: `pet-${i}`, categoryId: (i % 5) + 1, ...(status ? { status } : {}) },
      });
      if (!data) throw new Error(`seeding failed: ${JSON.stringify(error)}`);
      pets.push(data);
    }
    return pets;
  }

  it('creates and lists pets, with typed data and the typed Error object', async () => {
    const client = api().client();
    const created = await client.POST('/pets', { body: { name: 'Rex', categoryId: 3, status: 'available' } });
    expect(created.data).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'available' });
    expect(created.response.status).toBe(201);
    expect(created.response.headers.get('location')).toBe('/v1/pets/1');

    const listed = await client.GET('/pets', { params: { query: { status: 'available', limit: 5 } } });
    expect(listed.data).toEqual([created.data]);

    // A body the types forbid, sent anyway: the server's 400 comes back as data, never thrown.
    const invalid = await client.POST('/pets', { body: { name: 'Tom' } as NewPet });
    expect(invalid.data).toBeUndefined();
    expect(invalid.error).toEqual({ code: 'validation_failed', status: 400, message: 'Invalid request: body.categoryId is required.' });
    expect(invalid.response.status).toBe(400);
  });

  it('sends the bearer key on every call; a wrong key gets the typed 401', async () => {
    const denied = await api()
      .client({ apiKey: `${api().apiKey}x` })
      .GET('/pets');
    expect(denied.error).toMatchObject({ code: 'invalid_api_key', status: 401 });
    expect(denied.response.headers.get('www-authenticate')).toMatch(/^Bearer realm="pet-store", error="invalid_token"/);
    expect((await api().client().GET('/pets')).data).toEqual([]);
  });

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

  it.each(['available', 'pending', 'sold'] as const)(
    'listAllPets with status %s yields exactly those pets, in id order',
    async (status) => {
      const { client, requested } = api();
      const pets = await seed(45);
      const expected = pets.filter((pet) => pet.status === status);
      requested.length = 0;
      expect(await collect(listAllPets(client(), { status, pageSize: 4 }))).toEqual(expected);
      expect(requested).toHaveLength(Math.ceil(expected.length / 4));
      expect(requested.slice(1).every((url) => url.includes(`status=${status}&cursor=`))).toBe(true);
    },
  );

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

  it('getPet returns the pet and reports the deprecation once, with the Sunset date and successor', async () => {
    const notices: DeprecationNotice[] = [];
    const client = api().client({ onDeprecation: (notice) => notices.push(notice) });
    const [pet] = await seed(1);

    const first = await getPet(client, pet!.id);
    expect(first.data).toEqual(pet);
    expect(first.response.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    const missing = await getPet(client, 999);
    expect(missing.error).toEqual({ code: 'pet_not_found', status: 404, message: 'No pet with id 999.' });
    await client.GET('/pets/{petId}', { params: { path: { petId: pet!.id } } });
    await client.GET('/pets'); // not deprecated: no notice

    const successor = new URL('/v1/pets', api().server.baseUrl).href;
    expect(notices).toEqual([
      {
        operation: 'GET /pets/{petId}',
        deprecatedAt: new Date('2026-11-21T00:00:00Z'),
        sunset: new Date('2030-12-05T00:00:00Z'),
        successor: { href: successor, title: 'GET /v1/pets with the status filter' },
        message: `petstore-api: GET /pets/{petId} is deprecated since 2026-11-21T00:00:00Z and will be removed (Sunset) on 2030-12-05T00:00:00Z; use GET /v1/pets with the status filter (${successor}) instead.`,
      },
    ]);
  });
});

describe('the default deprecation warning', () => {
  const api = clientApiPerTest(backends[0]!);
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('is one console.warn per operation per process, however many clients call it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const [first, second] = [api().client({ onDeprecation: undefined }), api().client({ onDeprecation: undefined })];
    await getPet(first, 1);
    await getPet(first, 1);
    await second.GET('/pets/{petId}', { params: { path: { petId: 2 } } });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]![0]).toMatch(
      /^petstore-api: GET \/pets\/\{petId\} is deprecated .* on 2030-12-05T00:00:00Z; use GET \/v1\/pets/,
    );
  });
});
