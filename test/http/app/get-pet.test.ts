import { beforeEach, describe, expect, it } from 'vitest';
import { backends } from '../../support/backends.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

describe.each(backends)('getPet [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend });
    await t.storage.createPet({ name: 'Rex', categoryId: 3, status: 'available' });
  });

  it('returns the pet with its ETag, which changes with every update', async () => {
    const res = await t.api.get('/v1/pets/1').set(t.auth).expect(200);
    expect(res.body).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'available' });
    expect(res.headers['etag']).toBe('"1-1"');
    await t.storage.updatePet(1, { status: 'sold' });
    expect((await t.api.get('/v1/pets/1').set(t.auth).expect(200)).headers['etag']).toBe('"1-2"');
  });

  it.each([
    ['its ETag', '"1-1"'],
    ['its ETag, weak (If-None-Match compares weakly)', 'W/"1-1"'],
    ['a list with its ETag', '"1-0", "1-1"'],
    ['*', '*'],
  ])('answers If-None-Match with %s 304, without a body, with the ETag and the deprecation headers', async (_label, tags) => {
    const res = await t.api.get('/v1/pets/1').set(t.auth).set('If-None-Match', tags).expect(304);
    expect(res.text).toBe('');
    expect(res.headers['etag']).toBe('"1-1"');
    expect(res.headers['sunset']).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
  });

  it('answers 200 once the pet has changed since the tag If-None-Match lists', async () => {
    await t.storage.updatePet(1, { name: 'Rexie' });
    const res = await t.api.get('/v1/pets/1').set(t.auth).set('If-None-Match', '"1-1"').expect(200);
    expect([res.body, res.headers['etag']]).toEqual([{ id: 1, name: 'Rexie', categoryId: 3, status: 'available' }, '"1-2"']);
  });

  it('answers HEAD with If-None-Match as GET: 304 while unchanged', async () => {
    await t.api.head('/v1/pets/1').set(t.auth).set('If-None-Match', '"1-1"').expect(304);
    const res = await t.api.head('/v1/pets/1').set(t.auth).set('If-None-Match', '"1-2"').expect(200);
    expect(res.headers['etag']).toBe('"1-1"');
  });

  it('answers 404 for an unknown id whatever If-None-Match lists, and ignores one that is not entity-tags, as 1.1.0 did', async () => {
    await t.api.get('/v1/pets/2').set(t.auth).set('If-None-Match', '*').expect(404);
    for (const garbage of ['garbage', '1-1', '"1-1', ',']) {
      const res = await t.api.get('/v1/pets/1').set(t.auth).set('If-None-Match', garbage).expect(200);
      expect(res.headers['etag']).toBe('"1-1"');
    }
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
