import { beforeEach, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../../src/errors/api-error.js';
import type { Pet } from '../../../src/storage/pets/pets.js';
import { allBackends, backends } from '../../support/backends.js';
import { LARGEST_PET_ID, OUT_OF_RANGE_PET_IDS } from '../../support/pet-ids.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

const SUNSET = new Date('2030-12-05T00:00:00Z');

describe.each(backends)('deletePet [$name]', (backend) => {
  let t: TestApi;
  let rex: Pet;
  let tom: Pet;
  beforeEach(async () => {
    t = await createTestApi({ backend });
    rex = await t.storage.createPet({ name: 'Rex', categoryId: 3, status: 'available' });
    tom = await t.storage.createPet({ name: 'Tom', categoryId: 4 });
  });

  it('answers 204 without a body; then getPet, updatePet and deletePet answer 404, and listPets leaves the pet out', async () => {
    const res = await t.api.delete('/v1/pets/1').set(t.auth).expect(204);
    expect(res.text).toBe('');
    expect(res.headers['content-type']).toBeUndefined();
    const gone = { code: 'pet_not_found', status: 404, message: 'No pet with id 1.' };
    expect((await t.api.get('/v1/pets/1').set(t.auth).expect(404)).body).toEqual(gone);
    expect((await t.api.patch('/v1/pets/1').set(t.auth).send({ name: 'Max' }).expect(404)).body).toEqual(gone);
    expect((await t.api.patch('/v1/pets/1').set(t.auth).send({}).expect(404)).body).toEqual(gone);
    expect((await t.api.delete('/v1/pets/1').set(t.auth).expect(404)).body).toEqual(gone);
    expect((await t.api.delete('/v1/pets/1').set(t.auth).set('If-Match', '*').expect(404)).body).toEqual(gone);
    expect((await t.api.get('/v1/pets').set(t.auth).expect(200)).body).toEqual([tom]);
    expect((await t.api.get('/v1/pets?status=available').set(t.auth).expect(200)).body).toEqual([]);
  });

  it('never gives the id to another pet, even when it was the highest', async () => {
    await t.api.delete('/v1/pets/2').set(t.auth).expect(204);
    const res = await t.api.post('/v1/pets').set(t.auth).send({ name: 'Kit', categoryId: 5 }).expect(201);
    expect((res.body as Pet).id).toBe(3);
    await t.api.get('/v1/pets/2').set(t.auth).expect(404);
  });

  it('with If-Match, removes the pet only while it has a tag listed; 412 otherwise, and it stays', async () => {
    await t.api.patch('/v1/pets/1').set(t.auth).send({ status: 'sold' }).expect(200);
    for (const stale of ['"1-1"', 'W/"1-2"', '"2-2"']) {
      const res = await t.api.delete('/v1/pets/1').set(t.auth).set('If-Match', stale).expect(412);
      expect((res.body as ErrorBody).code).toBe('precondition_failed');
    }
    await t.api.get('/v1/pets/1').set(t.auth).expect(200);
    await t.api.delete('/v1/pets/1').set(t.auth).set('If-Match', '"1-1", "1-2"').expect(204);
    await t.api.delete('/v1/pets/2').set(t.auth).set('If-Match', '*').expect(204);
    expect((await t.api.get('/v1/pets').set(t.auth).expect(200)).body).toEqual([]);
  });

  it('refuses an If-Match that is not * or a list of entity-tags with 400, removing nothing', async () => {
    for (const ifMatch of ['garbage', '1-1', '"1-1", *']) {
      const res = await t.api.delete('/v1/pets/1').set(t.auth).set('If-Match', ifMatch).expect(400);
      expect((res.body as ErrorBody).message).toMatch(/^Invalid request: headers\.if-match must match pattern/);
    }
    expect(await t.storage.getPet(1)).toBeDefined();
  });

  it.each(OUT_OF_RANGE_PET_IDS)('refuses petId %s with 400', async (petId, sentence) => {
    const res = await t.api.delete(`/v1/pets/${petId}`).set(t.auth).expect(400);
    expect(res.body).toEqual({ code: 'validation_failed', status: 400, message: `Invalid request: ${sentence}.` });
    expect((await t.api.get('/v1/pets').set(t.auth).expect(200)).body).toEqual([rex, tom]);
  });

  it('answers 404 for the largest id there can be, 2^53 - 1', async () => {
    await t.api.delete(`/v1/pets/${LARGEST_PET_ID}`).set(t.auth).expect(404);
  });

  it('authenticates first: 401 before 404, 400 or 412, removing nothing', async () => {
    await t.api.delete('/v1/pets/9').expect(401);
    await t.api.delete('/v1/pets/0').expect(401);
    await t.api.delete('/v1/pets/1').set('If-Match', '"1-9"').expect(401);
    await t.api.delete('/v1/pets/1').set('Authorization', 'Bearer psk_not-a-key').expect(401);
    expect((await t.api.get('/v1/pets').set(t.auth).expect(200)).body).toEqual([rex, tom]);
  });

  it('is not deprecated: no Deprecation or Sunset, and served after getPet’s sunset', async () => {
    const res = await t.api.delete('/v1/pets/1').set(t.auth).expect(204);
    expect(res.headers['deprecation']).toBeUndefined();
    expect(res.headers['sunset']).toBeUndefined();
    const late = await createTestApi({ backend, clock: () => new Date(SUNSET.getTime() + 86_400_000) });
    await late.storage.createPet({ name: 'Rex', categoryId: 3 });
    await late.api.get('/v1/pets/1').set(late.auth).expect(410);
    const after = await late.api.delete('/v1/pets/1').set(late.auth).expect(204);
    expect(after.headers['sunset']).toBeUndefined();
    expect((await late.api.get('/v1/pets').set(late.auth).expect(200)).body).toEqual([]);
  });
});

// A delete and a patch at once meet in each store's own locking (the SQLite writer thread, PostgreSQL's rows).
describe.each(allBackends)('deletePet beside a patch sent at once [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend });
  });

  it('racing a patch of the same pet, either removes it after the patch or leaves the patch a 404', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { id } = await t.storage.createPet({ name: `pet-${round}`, categoryId: 1 });
      const [removed, patched] = await Promise.all([
        t.api.delete(`/v1/pets/${id}`).set(t.auth),
        t.api.patch(`/v1/pets/${id}`).set(t.auth).send({ status: 'sold' }),
      ]);
      expect(removed.status).toBe(204);
      expect([200, 404]).toContain(patched.status);
      await t.api.get(`/v1/pets/${id}`).set(t.auth).expect(404);
    }
  });

  it('of a delete and a patch sent at once with the same If-Match, lets exactly one through; the other finds the pet gone or changed', async () => {
    for (let round = 0; round < 5; round += 1) {
      const { id } = await t.storage.createPet({ name: `pet-${round}`, categoryId: 1 });
      const [removed, patched] = await Promise.all([
        t.api.delete(`/v1/pets/${id}`).set(t.auth).set('If-Match', `"${id}-1"`),
        t.api.patch(`/v1/pets/${id}`).set(t.auth).set('If-Match', `"${id}-1"`).send({ status: 'sold' }),
      ]);
      // The patch first: the delete's tag is stale (412). The delete first: there is no pet (404 comes before 412).
      expect([removed.status, patched.status]).toEqual(removed.status === 204 ? [204, 404] : [412, 200]);
      const left = await t.storage.getPet(id);
      expect(left === undefined).toBe(removed.status === 204);
    }
  });
});
