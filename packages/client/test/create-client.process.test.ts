import { describe, expect, it } from 'vitest';
import { PetStoreNetworkError, type NewPet } from '../src/index.js';
import { backends } from './support/pet-store.js';
import { clientApiPerTest } from './support/client-api.js';
import { startResettingProxy } from './support/resetting-proxy.js';

describe.each(backends)('createPetStoreClient against the server process ($name)', (backend) => {
  const api = clientApiPerTest(backend);

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
    // Formats are the server's to check, in full (docs/client.md, "Formats"): a value its format
    // refuses, which the types cannot tell, comes back the same way.
    const unsafe = await client.POST('/pets', { body: { name: 'Tom', categoryId: 2 ** 53 } });
    expect(unsafe.error).toMatchObject({ code: 'validation_failed', status: 400 });
    expect(unsafe.error?.message).toContain('body.categoryId must match format "int64"');
  });

  it('sends the bearer key on every call; a wrong key gets the typed 401', async () => {
    const denied = await api()
      .client({ apiKey: `${api().apiKey}x` })
      .GET('/pets');
    expect(denied.error).toMatchObject({ code: 'invalid_api_key', status: 401 });
    expect(denied.response.headers.get('www-authenticate')).toMatch(/^Bearer realm="pet-store", error="invalid_token"/);
    expect((await api().client().GET('/pets')).data).toEqual([]);
  });

  it('retries a create whose connection was cut after the server committed it: one pet, and the replayed answer', async () => {
    const proxy = await startResettingProxy(new URL(api().server.baseUrl).origin);
    try {
      const baseUrl = `${proxy.origin}/v1`;
      proxy.resets = 2;
      const client = api().client({ baseUrl, retries: { attempts: 5, baseDelayMs: 1, maxDelayMs: 20 } });
      const { data, response } = await client.POST('/pets', { body: { name: 'Rex', categoryId: 3 } });
      expect(data).toEqual({ id: 1, name: 'Rex', categoryId: 3 });
      expect(response.headers.get('idempotent-replayed')).toBe('true');
      expect(response.headers.get('location')).toBe('/v1/pets/1');
      expect(proxy.forwarded.map((request) => request.status)).toEqual([201, 201, 201]);
      expect(new Set(proxy.forwarded.map((request) => request.idempotencyKey)).size).toBe(1);
      expect((await api().client().GET('/pets')).data).toEqual([data]);

      // With retries off, the same cut is a network error, and the pet was made all the same.
      proxy.resets = 1;
      const once = api().client({ baseUrl, retries: false });
      await expect(once.POST('/pets', { body: { name: 'Tom', categoryId: 3 } })).rejects.toBeInstanceOf(PetStoreNetworkError);
      expect((await api().client().GET('/pets')).data?.map((pet) => pet.name)).toEqual(['Rex', 'Tom']);
    } finally {
      await proxy.close();
    }
  });
});
