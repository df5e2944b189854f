import { describe, expect, it } from 'vitest';
import { deletePet, isPreconditionFailed, updatePet } from '../src/index.js';
import { clientApiPerTest } from './support/client-api.js';
import { backends } from './support/pet-store.js';

describe.each(backends)('updatePet and deletePet against the server process ($name)', (backend) => {
  const api = clientApiPerTest(backend);

  it('updatePet applies a merge patch and exposes the new ETag; a stale one gets the typed 412, and nothing changes', async () => {
    const client = api().client();
    const created = await client.POST('/pets', { body: { name: 'Rex', categoryId: 3, status: 'available' } });
    const createdTag = created.response.headers.get('ETag')!;

    const sold = await updatePet(client, 1, { status: 'sold' }, { ifMatch: createdTag });
    expect(sold.data).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'sold' });
    expect(sold.etag).toMatch(/^"[^"]+"$/);
    expect(sold.etag).not.toBe(createdTag);
    expect(sold.response.status).toBe(200);

    const stale = await updatePet(client, 1, { status: 'available' }, { ifMatch: createdTag });
    expect(stale.data).toBeUndefined();
    expect(isPreconditionFailed(stale.error)).toBe(true);
    expect(stale.error).toMatchObject({ code: 'precondition_failed', status: 412 });

    const unconditional = await updatePet(client, 1, { status: null, name: 'Rexie' });
    expect(unconditional.data).toEqual({ id: 1, name: 'Rexie', categoryId: 3 });
    expect((await client.GET('/pets')).data).toEqual([unconditional.data]);
  });

  it('updatePet sends application/merge-patch+json, and client.PATCH application/json, read the same way', async () => {
    const client = api().client();
    await client.POST('/pets', { body: { name: 'Rex', categoryId: 3 } });
    const sent: string[] = [];
    const recording = api().client({
      fetch: (request) => {
        sent.push(request.headers.get('Content-Type')!);
        return globalThis.fetch(request);
      },
    });
    await updatePet(recording, 1, { categoryId: 4 });
    const plain = await recording.PATCH('/pets/{petId}', { params: { path: { petId: 1 } }, body: { categoryId: 5 } });
    expect(sent).toEqual(['application/merge-patch+json', 'application/json']);
    expect(plain.data).toEqual({ id: 1, name: 'Rex', categoryId: 5 });
  });

  it('deletePet removes the pet, conditionally or not; then the id answers 404', async () => {
    const client = api().client();
    await client.POST('/pets', { body: { name: 'Rex', categoryId: 3 } });
    const tom = await client.POST('/pets', { body: { name: 'Tom', categoryId: 4 } });

    const stale = await deletePet(client, 1, { ifMatch: '"1-9"' });
    expect(isPreconditionFailed(stale.error)).toBe(true);
    const removed = await deletePet(client, 1, { ifMatch: '*' });
    expect([removed.error, removed.response.status]).toEqual([undefined, 204]);
    expect((await deletePet(client, 1)).error).toMatchObject({ code: 'pet_not_found', status: 404 });
    expect((await updatePet(client, 1, {})).error).toMatchObject({ code: 'pet_not_found', status: 404 });

    expect((await deletePet(client, 2, { ifMatch: tom.response.headers.get('ETag')! })).error).toBeUndefined();
    expect((await client.GET('/pets')).data).toEqual([]);
  });
});
