import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/errors/api-error.js';
import { getPet } from '../../src/handlers/get-pet.js';
import { backends, sqliteBackend } from '../support/backends.js';
import { operationRequest } from '../support/operation-request.js';
import { openTestStorage } from '../support/test-app.js';

describe.each(backends)('getPet handler [$name]', (backend) => {
  it('returns the pet with that id and its ETag, which changes with every update', async () => {
    const storage = await openTestStorage(backend);
    const pet = await storage.createPet({ name: 'Rex', categoryId: 3 });
    const handler = getPet({ storage });
    expect(await handler(operationRequest({ path: { petId: pet.id } }))).toEqual({ status: 200, body: pet, headers: { ETag: '"1-1"' } });
    await storage.updatePet(pet.id, { status: 'sold' });
    expect(await handler(operationRequest({ path: { petId: pet.id } }))).toEqual({
      status: 200,
      body: { ...pet, status: 'sold' },
      headers: { ETag: '"1-2"' },
    });
  });

  it('raises pet_not_found, naming the id, for an id no pet has', async () => {
    const handler = getPet({ storage: await openTestStorage(backend) });
    // Raised at once where storage answers at once (SQLite), else as a rejection.
    const failure = (async () => handler(operationRequest({ path: { petId: 42 } })))();
    await expect(failure).rejects.toBeInstanceOf(ApiError);
    await expect(failure).rejects.toMatchObject({ code: 'pet_not_found', status: 404, message: 'No pet with id 42.' });
  });
});

describe('getPet handler on SQLite', () => {
  it('answers at once, without a promise, as the store does', async () => {
    const storage = await openTestStorage(sqliteBackend);
    const pet = await storage.createPet({ name: 'Rex', categoryId: 3 });
    const handler = getPet({ storage });
    const answer = handler(operationRequest({ path: { petId: pet.id } }));
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toEqual({ status: 200, body: pet, headers: { ETag: '"1-1"' } });
    expect(() => handler(operationRequest({ path: { petId: 42 } }))).toThrow(ApiError);
  });
});
