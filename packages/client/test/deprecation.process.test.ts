import { afterEach, describe, expect, it, vi } from 'vitest';
import { getPet, type DeprecationNotice } from '../src/index.js';
import { backends } from './support/pet-store.js';
import { clientApiPerTest, seedThroughClient } from './support/client-api.js';

describe.each(backends)('deprecation notices against the server process ($name)', (backend) => {
  const api = clientApiPerTest(backend);
  const seed = (count: number) => seedThroughClient(api().client(), count);

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
