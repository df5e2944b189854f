import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import { petETag } from '../../src/handlers/entity-tags.js';
import { updatePet } from '../../src/handlers/update-pet.js';
import type { PetPatch } from '../../src/storage/pets/pets.js';
import type { Storage } from '../../src/storage/storage.js';
import { allBackends, backends } from '../support/backends.js';
import { operationRequest } from '../support/operation-request.js';
import { openTestStorage } from '../support/test-app.js';

function patch(storage: Storage, petId: number, body: PetPatch, ifMatch?: string) {
  return updatePet({ storage })(operationRequest({ path: { petId }, body, headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch } }));
}

describe.each(backends)('updatePet handler [$name]', (backend) => {
  it('applies a merge patch: the fields sent replace the pet’s, the others stay; the answer is the whole pet with a new ETag', async () => {
    const storage = await openTestStorage(backend);
    const { id } = await storage.createPet({ name: 'Rex', categoryId: 3, status: 'available' });
    expect(await patch(storage, id, { status: 'sold' })).toEqual({
      status: 200,
      body: { id, name: 'Rex', categoryId: 3, status: 'sold' },
      headers: { ETag: petETag(id, 2) },
    });
    expect(await patch(storage, id, { name: 'Rexie', categoryId: 4 })).toEqual({
      status: 200,
      body: { id, name: 'Rexie', categoryId: 4, status: 'sold' },
      headers: { ETag: petETag(id, 3) },
    });
    expect(await storage.getPet(id)).toEqual({ pet: { id, name: 'Rexie', categoryId: 4, status: 'sold' }, version: 3 });
  });

  it('removes the status for "status": null, as a create without one leaves it', async () => {
    const storage = await openTestStorage(backend);
    const { id } = await storage.createPet({ name: 'Rex', categoryId: 3, status: 'pending' });
    expect((await patch(storage, id, { status: null })).body).toEqual({ id, name: 'Rex', categoryId: 3 });
    expect((await storage.getPet(id))?.pet).toEqual({ id, name: 'Rex', categoryId: 3 });
  });

  it('changes nothing for {}: no write, the same ETag, and the pet as it is', async () => {
    const storage = await openTestStorage(backend);
    const { id } = await storage.createPet({ name: 'Rex', categoryId: 3 });
    await patch(storage, id, { categoryId: 5 });
    expect(await patch(storage, id, {})).toEqual({
      status: 200,
      body: { id, name: 'Rex', categoryId: 5 },
      headers: { ETag: petETag(id, 2) },
    });
    expect((await storage.getPet(id))?.version).toBe(2);
  });

  it('lets any status follow any other', async () => {
    const storage = await openTestStorage(backend);
    const { id } = await storage.createPet({ name: 'Rex', categoryId: 3, status: 'sold' });
    for (const status of ['available', 'pending', 'sold', 'pending', 'available', 'sold'] as const) {
      expect((await patch(storage, id, { status })).body).toMatchObject({ status });
    }
  });

  it('with If-Match, changes the pet only while it has a tag listed; * matches any pet that exists', async () => {
    const storage = await openTestStorage(backend);
    const { id } = await storage.createPet({ name: 'Rex', categoryId: 3 });
    expect((await patch(storage, id, { status: 'sold' }, petETag(id, 1))).headers.ETag).toBe(petETag(id, 2));
    for (const stale of [petETag(id, 1), `W/${petETag(id, 2)}`, petETag(id + 1, 2)]) {
      await expect(patch(storage, id, { status: 'available' }, stale)).rejects.toMatchObject({
        code: 'precondition_failed',
        status: 412,
        message: `Pet ${id} has changed: its ETag is no longer one that If-Match lists. Read it again and retry.`,
      });
      await expect(patch(storage, id, {}, stale)).rejects.toMatchObject({ code: 'precondition_failed' });
    }
    expect((await storage.getPet(id))?.pet.status).toBe('sold');
    expect((await patch(storage, id, { status: 'pending' }, `${petETag(id, 1)}, ${petETag(id, 2)}`)).headers.ETag).toBe(petETag(id, 3));
    expect((await patch(storage, id, { status: 'available' }, '*')).headers.ETag).toBe(petETag(id, 4));
    expect((await patch(storage, id, {}, petETag(id, 4))).headers.ETag).toBe(petETag(id, 4));
  });

  it('raises pet_not_found for an id no pet has, whatever If-Match says (404 comes before 412)', async () => {
    const storage = await openTestStorage(backend);
    for (const ifMatch of [undefined, '*', '"42-1"', '"1-1"']) {
      for (const body of [{ status: 'sold' as const }, {}]) {
        const failure = patch(storage, 42, body, ifMatch);
        await expect(failure).rejects.toBeInstanceOf(ApiError);
        await expect(failure).rejects.toMatchObject({ code: 'pet_not_found', status: 404, message: 'No pet with id 42.' });
      }
    }
  });
});

// Two writes at once meet in each store's own locking (the SQLite writer thread, PostgreSQL's rows).
describe.each(allBackends)('updatePet handler, two updates at once [$name]', (backend) => {
  it('gives exactly one of two updates that send the same If-Match at once the change; the other gets 412', async () => {
    const storage = await openTestStorage(backend);
    const { id } = await storage.createPet({ name: 'Rex', categoryId: 3 });
    for (let round = 1; round <= 5; round += 1) {
      const tag = petETag(id, round);
      const outcomes = await Promise.allSettled([
        patch(storage, id, { name: `a${round}` }, tag),
        patch(storage, id, { name: `b${round}` }, tag),
      ]);
      const won = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const lost = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost.map((outcome) => (outcome.reason as ApiError).code)).toEqual(['precondition_failed']);
      expect((await storage.getPet(id))?.version).toBe(round + 1);
    }
  });

  it('without If-Match, applies both of two updates at once: the last write wins, each field as its patch says', async () => {
    const storage = await openTestStorage(backend);
    const { id } = await storage.createPet({ name: 'Rex', categoryId: 3 });
    await Promise.all([patch(storage, id, { name: 'Rexie' }), patch(storage, id, { status: 'sold' })]);
    expect(await storage.getPet(id)).toEqual({ pet: { id, name: 'Rexie', categoryId: 3, status: 'sold' }, version: 3 });
  });
});
