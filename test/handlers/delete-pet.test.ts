import { describe, expect, it } from 'vitest';
import { deletePet } from '../../src/handlers/delete-pet.js';
import { petETag } from '../../src/handlers/entity-tags.js';
import type { Storage } from '../../src/storage/storage.js';
import { backends } from '../support/backends.js';
import { operationRequest } from '../support/operation-request.js';
import { openTestStorage } from '../support/test-app.js';

function remove(storage: Storage, petId: number, ifMatch?: string) {
  return deletePet({ storage })(operationRequest({ path: { petId }, headers: ifMatch === undefined ? {} : { 'If-Match': ifMatch } }));
}

describe.each(backends)('deletePet handler [$name]', (backend) => {
  it('removes the pet and answers 204 without a body; the id names nothing from then on', async () => {
    const storage = await openTestStorage(backend);
    const { id } = await storage.createPet({ name: 'Rex', categoryId: 3 });
    const other = await storage.createPet({ name: 'Tom', categoryId: 4 });
    expect(await remove(storage, id)).toEqual({ status: 204 });
    expect(await storage.getPet(id)).toBeUndefined();
    expect(await storage.listPets({ limit: 10 })).toEqual([other]);
    await expect(remove(storage, id)).rejects.toMatchObject({ code: 'pet_not_found', status: 404, message: `No pet with id ${id}.` });
  });

  it('with If-Match, removes the pet only while it has a tag listed; * matches any pet that exists', async () => {
    const storage = await openTestStorage(backend);
    const { id } = await storage.createPet({ name: 'Rex', categoryId: 3 });
    await storage.updatePet(id, { status: 'sold' });
    for (const stale of [petETag(id, 1), `W/${petETag(id, 2)}`, '"x"']) {
      await expect(remove(storage, id, stale)).rejects.toMatchObject({ code: 'precondition_failed', status: 412 });
    }
    expect(await storage.getPet(id)).toBeDefined();
    expect(await remove(storage, id, `${petETag(id, 1)}, ${petETag(id, 2)}`)).toEqual({ status: 204 });
    const next = await storage.createPet({ name: 'Tom', categoryId: 4 });
    expect(await remove(storage, next.id, '*')).toEqual({ status: 204 });
    await expect(remove(storage, next.id, '*')).rejects.toMatchObject({ code: 'pet_not_found' });
  });

  it('never gives a removed id to another pet, even when it was the highest', async () => {
    const storage = await openTestStorage(backend);
    const first = await storage.createPet({ name: 'Rex', categoryId: 3 });
    const last = await storage.createPet({ name: 'Tom', categoryId: 4 });
    await remove(storage, last.id);
    const next = await storage.createPet({ name: 'Kit', categoryId: 5 });
    expect(next.id).toBeGreaterThan(last.id);
    expect(await storage.listPets({ limit: 10 })).toEqual([first, next]);
  });
});
