import { beforeEach, describe, expect, it } from 'vitest';
import { isApiError } from '../../src/errors/api-error.js';
import { listPets } from '../../src/handlers/list-pets.js';
import type { OperationHandler } from '../../src/handlers/operation.js';
import { encodeCursor } from '../../src/handlers/paging.js';
import type { Pet } from '../../src/storage/pets/pets.js';
import type { Storage } from '../../src/storage/storage.js';
import { allBackends, sqliteBackend } from '../support/backends.js';
import { operationRequest } from '../support/operation-request.js';
import { openTestStorage } from '../support/test-app.js';

describe.each(allBackends)('listPets handler [$name]', (backend) => {
  let storage: Storage;
  let handler: OperationHandler<'listPets'>;
  let pets: Pet[];
  beforeEach(async () => {
    storage = await openTestStorage(backend);
    handler = listPets({ storage, basePath: '/v1' });
    pets = [];
    for (const [index, status] of (['available', 'sold', undefined, 'available', 'available'] as const).entries()) {
      pets.push(await storage.createPet({ name: `pet-${index}`, categoryId: 1, ...(status ? { status } : {}) }));
    }
  });

  it('returns the whole list and no link when it fits the page', async () => {
    expect(await handler(operationRequest({ query: { limit: 5 } }))).toEqual({ status: 200, body: pets });
  });

  it('returns one page and a link to the next, keeping limit and status', async () => {
    const result = await handler(operationRequest({ query: { limit: 2, status: 'available' } }));
    expect(result.body).toEqual([pets[0], pets[3]]);
    expect(result.headers).toEqual({ Link: `</v1/pets?limit=2&status=available&cursor=${encodeCursor(pets[3]!.id)}>; rel="next"` });
  });

  it('continues after the cursor', async () => {
    const result = await handler(operationRequest({ query: { limit: 2, cursor: encodeCursor(pets[1]!.id) } }));
    expect(result.body).toEqual([pets[2], pets[3]]);
    expect(result.headers?.Link).toMatch(/rel="next"$/);
  });

  it('raises invalid_cursor for a cursor it did not issue', async () => {
    const failure = await (async () => handler(operationRequest({ query: { limit: 2, cursor: 'aGVsbG8' } })))().catch(
      (error: unknown) => error,
    );
    expect(isApiError(failure) && failure.toBody()).toMatchObject({ code: 'invalid_cursor', status: 400 });
  });
});

describe('listPets handler on SQLite', () => {
  it('answers at once, without a promise, as the store does', async () => {
    const storage = await openTestStorage(sqliteBackend);
    const pet = await storage.createPet({ name: 'Rex', categoryId: 3 });
    const answer = listPets({ storage, basePath: '/v1' })(operationRequest({ query: { limit: 5 } }));
    expect(answer).not.toBeInstanceOf(Promise);
    expect(answer).toEqual({ status: 200, body: [pet] });
  });
});
