import { beforeEach, describe, expect, it } from 'vitest';
import { backends } from '../../support/backends.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

describe.each(backends)('getPet [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend });
    await t.storage.createPet({ name: 'Rex', categoryId: 3, status: 'available' });
  });

  it('returns the pet', async () => {
    const res = await t.api.get('/v1/pets/1').set(t.auth).expect(200);
    expect(res.body).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'available' });
  });

  it('answers 404 pet_not_found for an unknown id', async () => {
    const res = await t.api.get('/v1/pets/2').set(t.auth).expect(404);
    expect(res.body).toEqual({ code: 'pet_not_found', status: 404, message: 'No pet with id 2.' });
  });

  it.each([
    ['abc', 'path.petId must be integer'],
    ['1.5', 'path.petId must be integer'],
    ['0', 'path.petId must be >= 1'],
    ['-1', 'path.petId must be >= 1'],
    ['99999999999999999999', 'path.petId must be <= 9007199254740991; path.petId must match format "int64"'],
    ['9007199254740993', 'path.petId must be <= 9007199254740991; path.petId must match format "int64"'],
    ['%ZZ', 'the URL is not valid percent-encoding'],
  ])('answers 400 for petId %s', async (petId, sentence) => {
    const res = await t.api.get(`/v1/pets/${petId}`).set(t.auth).expect(400);
    expect(res.body).toEqual({ code: 'validation_failed', status: 400, message: `Invalid request: ${sentence}.` });
  });
});
