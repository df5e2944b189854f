import { describe, expect, it } from 'vitest';
import { createPet } from '../../src/handlers/create-pet.js';
import { backends } from '../support/backends.js';
import { operationRequest } from '../support/operation-request.js';
import { openTestStorage } from '../support/test-app.js';

describe.each(backends)('createPet handler [$name]', (backend) => {
  it('stores the pet and answers 201 with it and the path to read it back (getPet)', async () => {
    const storage = await openTestStorage(backend);
    const handler = createPet({ storage, basePath: '/v1' });
    const result = await handler(operationRequest({ body: { name: 'Rex', categoryId: 3, status: 'available' } }));
    expect(result).toEqual({
      status: 201,
      body: { id: 1, name: 'Rex', categoryId: 3, status: 'available' },
      headers: { Location: '/v1/pets/1' },
    });
    expect(await storage.getPet(1)).toEqual(result.body);
  });

  it('leaves an omitted status absent', async () => {
    const handler = createPet({ storage: await openTestStorage(backend), basePath: '/v2' });
    const result = await handler(operationRequest({ body: { name: 'Tom', categoryId: 4 } }));
    expect(result.body).toEqual({ id: 1, name: 'Tom', categoryId: 4 });
    expect(result.headers.Location).toBe('/v2/pets/1');
  });
});
