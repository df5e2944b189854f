import { beforeEach, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../../src/errors/api-error.js';
import { allBackends, backends } from '../../support/backends.js';
import { LARGEST_PET_ID, OUT_OF_RANGE_PET_IDS } from '../../support/pet-ids.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

const SUNSET = new Date('2030-12-05T00:00:00Z');
const MERGE_PATCH = 'application/merge-patch+json';

function patch(t: TestApi, path: string, body: unknown, type = MERGE_PATCH) {
  return t.api
    .patch(path)
    .set(t.auth)
    .set('Content-Type', type)
    .send(typeof body === 'string' ? body : JSON.stringify(body));
}

describe.each(backends)('updatePet [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend });
    await t.storage.createPet({ name: 'Rex', categoryId: 3, status: 'available' });
  });

  it.each([MERGE_PATCH, 'application/json', 'application/merge-patch+json; charset=utf-8'])(
    'applies a merge patch sent as %s and answers 200 with the whole pet and a new ETag',
    async (type) => {
      const res = await patch(t, '/v1/pets/1', { status: 'sold' }, type).expect(200);
      expect(res.body).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'sold' });
      expect(res.headers['etag']).toBe('"1-2"');
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const read = await t.api.get('/v1/pets/1').set(t.auth).expect(200);
      expect([read.body, read.headers['etag']]).toEqual([res.body, '"1-2"']);
    },
  );

  it('keeps the fields a patch leaves out, and removes the status for "status": null', async () => {
    await patch(t, '/v1/pets/1', { name: 'Rexie', categoryId: 9 }).expect(200);
    const res = await patch(t, '/v1/pets/1', { status: null }).expect(200);
    expect(res.body).toEqual({ id: 1, name: 'Rexie', categoryId: 9 });
    expect(res.text).not.toContain('status');
    expect((await t.api.get('/v1/pets?status=available').set(t.auth).expect(200)).body).toEqual([]);
    expect((await t.api.get('/v1/pets').set(t.auth).expect(200)).body).toEqual([res.body]);
  });

  it('answers {} with the pet as it is, writing nothing: the ETag stays', async () => {
    const res = await patch(t, '/v1/pets/1', {}).expect(200);
    expect([res.body, res.headers['etag']]).toEqual([{ id: 1, name: 'Rex', categoryId: 3, status: 'available' }, '"1-1"']);
    expect((await t.storage.getPet(1))?.version).toBe(1);
  });

  it('lists the pet under its new status, and no longer under its old one', async () => {
    await patch(t, '/v1/pets/1', { status: 'pending' }).expect(200);
    expect((await t.api.get('/v1/pets?status=available').set(t.auth).expect(200)).body).toEqual([]);
    expect((await t.api.get('/v1/pets?status=pending').set(t.auth).expect(200)).body).toEqual([
      { id: 1, name: 'Rex', categoryId: 3, status: 'pending' },
    ]);
  });

  it.each([
    ['an id', { id: 2 }, 'body.id is not a field of this request; remove it'],
    ['an unknown member', { colour: 'brown' }, 'body.colour is not a field of this request; remove it'],
    ['__proto__', '{"__proto__":{"status":"sold"}}', 'body.__proto__ is not a field of this request; remove it'],
    ['constructor', '{"constructor":{"prototype":{"status":"sold"}}}', 'body.constructor is not a field of this request; remove it'],
    ['null for name', { name: null }, 'body.name must be string'],
    ['null for categoryId', { categoryId: null }, 'body.categoryId must be integer'],
    ['a name of the wrong type', { name: 5 }, 'body.name must be string'],
    ['an empty name', { name: '' }, 'body.name must NOT have fewer than 1 characters; body.name must match pattern "\\S"'],
    ['categoryId as a string', { categoryId: '3' }, 'body.categoryId must be integer'],
    ['categoryId zero', { categoryId: 0 }, 'body.categoryId must be >= 1'],
    [
      'an unknown status',
      { status: 'lost' },
      'body.status must be equal to one of the allowed values: available, pending, sold; body.status must be null; body.status must match a schema in anyOf',
    ],
    ['an array', [{ status: 'sold' }], 'body must be object'],
    ['a key twice', '{"status":"sold","status":"pending"}', 'body has the key "status" more than once'],
    ['an object nested thousands deep', `{"name":${'{"a":'.repeat(2500)}1${'}'.repeat(2500)}}`, 'body.name must be string'],
    ['arrays nested thousands deep', `{"name":${'['.repeat(8000)}${']'.repeat(8000)}}`, 'body is nested too deeply'],
    // Deep enough to exhaust a recursive check of the parsed body, not the parser.
    ['arrays nested two thousand deep', `{"name":${'['.repeat(2000)}${']'.repeat(2000)}}`, 'body.name must be string'],
    [
      'a status nested two thousand deep',
      `{"status":${'['.repeat(2000)}"sold"${']'.repeat(2000)}}`,
      'body.status must be string; body.status must be equal to one of the allowed values: available, pending, sold; body.status must be null; body.status must match a schema in anyOf',
    ],
  ])('refuses %s with 400, changing nothing', async (_label, body, sentence) => {
    const res = await patch(t, '/v1/pets/1', body).expect(400);
    expect(res.body).toEqual({ code: 'validation_failed', status: 400, message: `Invalid request: ${sentence}.` });
    expect(await t.storage.getPet(1)).toEqual({ pet: { id: 1, name: 'Rex', categoryId: 3, status: 'available' }, version: 1 });
  });

  it.each([
    ['a JSON string', '"sold"'],
    ['a JSON number', '5'],
    ['null', 'null'],
    ['an array', '[]'],
  ])('refuses %s as the body with 400: the schema takes an object', async (_label, text) => {
    const res = await patch(t, '/v1/pets/1', text).expect(400);
    expect(res.body).toEqual({ code: 'validation_failed', status: 400, message: 'Invalid request: body must be object.' });
  });

  it('refuses malformed JSON with 400 malformed_json', async () => {
    expect(((await patch(t, '/v1/pets/1', '{"status":').expect(400)).body as ErrorBody).code).toBe('malformed_json');
  });

  it.each([
    ['no body', undefined],
    ['white space', ' \n'],
  ])('refuses %s with 400: the body is required', async (_label, text) => {
    const sent = t.api.patch('/v1/pets/1').set(t.auth).set('Content-Type', MERGE_PATCH);
    const res = await (text === undefined ? sent : sent.send(text)).expect(400);
    expect(res.body).toEqual({ code: 'validation_failed', status: 400, message: 'Invalid request: body is required.' });
  });

  it('answers 413 for a body over the limit: 10,000 members do not fit', async () => {
    const members = `{${Array.from({ length: 10_000 }, (_, i) => `"m${i}":1`).join(',')}}`;
    const res = await patch(t, '/v1/pets/1', members).expect(413);
    expect(res.body).toEqual({ code: 'payload_too_large', status: 413, message: 'The request body is larger than 16384 bytes.' });
  });

  it('names a body of a thousand unknown members in a short answer', async () => {
    const members = `{${Array.from({ length: 1000 }, (_, i) => `"m${i}":1`).join(',')}}`;
    const res = await patch(t, '/v1/pets/1', members).expect(400);
    expect((res.body as ErrorBody).message).toMatch(/; and 990 more\.$/);
  });

  it.each(['text/plain', 'application/json-patch+json', 'application/xml', 'application/x-www-form-urlencoded'])(
    'answers 415 for a %s body',
    async (type) => {
      const res = await patch(t, '/v1/pets/1', '[]', type).expect(415);
      expect((res.body as ErrorBody).code).toBe('unsupported_media_type');
    },
  );

  it('reads application/merge-patch+json only where the spec takes it: createPet answers 415', async () => {
    const res = await t.api.post('/v1/pets').set(t.auth).set('Content-Type', MERGE_PATCH).send('{"name":"Tom","categoryId":1}').expect(415);
    expect((res.body as ErrorBody).code).toBe('unsupported_media_type');
  });

  describe('If-Match', () => {
    it('changes the pet when it lists the current ETag, and answers 412 precondition_failed when it does not', async () => {
      const first = await patch(t, '/v1/pets/1', { status: 'pending' }).set('If-Match', '"1-1"').expect(200);
      expect(first.headers['etag']).toBe('"1-2"');
      const stale = await patch(t, '/v1/pets/1', { status: 'sold' }).set('If-Match', '"1-1"').expect(412);
      expect(stale.body).toEqual({
        code: 'precondition_failed',
        status: 412,
        message: 'Pet 1 has changed: its ETag is no longer one that If-Match lists. Read it again and retry.',
      });
      expect((await t.storage.getPet(1))?.pet.status).toBe('pending');
    });

    it.each([
      ['*', '*', 200],
      ['a list with the current tag', '"1-7", "1-1"', 200],
      ['a list with empty elements', ', "1-1" ,', 200],
      ['the current tag, weak (strong comparison)', 'W/"1-1"', 412],
      ["another pet's tag", '"2-1"', 412],
      ['a tag not made here', '"xyzzy"', 412],
      ['the empty tag', '""', 412],
    ])('takes %s: %s → %i', async (_label, ifMatch, status) => {
      await patch(t, '/v1/pets/1', { name: 'Max' }).set('If-Match', ifMatch).expect(status);
      // {} writes nothing, and If-Match holds for it all the same: the tag that matched is stale now.
      await patch(t, '/v1/pets/1', {})
        .set('If-Match', ifMatch)
        .expect(ifMatch === '*' ? 200 : 412);
    });

    it.each([['garbage'], ['1-1'], ['"1-1'], ['*, "1-1"'], ['w/"1-1"'], ['"1 1"']])(
      'refuses %s, which is neither * nor a list of entity-tags, with 400',
      async (ifMatch) => {
        const res = await patch(t, '/v1/pets/1', { name: 'Max' }).set('If-Match', ifMatch).expect(400);
        expect((res.body as ErrorBody).message).toMatch(/^Invalid request: headers\.if-match must match pattern/);
      },
    );

    it('answers 404 for an id no pet has, whatever it lists', async () => {
      for (const ifMatch of ['*', '"2-1"', '"1-1"']) {
        const res = await patch(t, '/v1/pets/2', { name: 'Max' }).set('If-Match', ifMatch).expect(404);
        expect(res.body).toEqual({ code: 'pet_not_found', status: 404, message: 'No pet with id 2.' });
      }
    });
  });

  it.each([...OUT_OF_RANGE_PET_IDS, ['01', 'path.petId must be integer'], ['1e0', 'path.petId must be integer']])(
    'refuses petId %s with 400',
    async (petId, sentence) => {
      const res = await patch(t, `/v1/pets/${petId}`, { name: 'Max' }).expect(400);
      expect(res.body).toEqual({ code: 'validation_failed', status: 400, message: `Invalid request: ${sentence}.` });
    },
  );

  it('answers 404 for the largest id there can be, 2^53 - 1', async () => {
    const res = await patch(t, `/v1/pets/${LARGEST_PET_ID}`, { name: 'Max' }).expect(404);
    expect(res.body).toEqual({ code: 'pet_not_found', status: 404, message: 'No pet with id 9007199254740991.' });
  });

  it('authenticates first: 401 before 404, 400, 412, 413 or 415', async () => {
    for (const send of [
      () => t.api.patch('/v1/pets/2').set('Content-Type', MERGE_PATCH).send('{}'),
      () => t.api.patch('/v1/pets/1').set('Content-Type', MERGE_PATCH).send('{"id":1}'),
      () => t.api.patch('/v1/pets/1').set('Content-Type', MERGE_PATCH).set('If-Match', '"1-9"').send('{}'),
      () => t.api.patch('/v1/pets/1').set('Content-Type', 'text/plain').send('x'),
      () =>
        t.api
          .patch('/v1/pets/1')
          .set('Content-Type', MERGE_PATCH)
          .send(JSON.stringify({ name: 'x'.repeat(20_000) })),
    ]) {
      expect(((await send().expect(401)).body as ErrorBody).code).toBe('missing_api_key');
    }
    expect((await t.storage.getPet(1))?.version).toBe(1);
  });

  it('is not deprecated: no Deprecation or Sunset, and served after getPet’s sunset', async () => {
    const res = await patch(t, '/v1/pets/1', { status: 'sold' }).expect(200);
    expect(res.headers['deprecation']).toBeUndefined();
    expect(res.headers['sunset']).toBeUndefined();
    const late = await createTestApi({ backend, clock: () => SUNSET });
    await late.storage.createPet({ name: 'Rex', categoryId: 3 });
    await late.api.get('/v1/pets/1').set(late.auth).expect(410);
    const after = await patch(late, '/v1/pets/1', { status: 'sold' }).expect(200);
    expect([after.body, after.headers['etag'], after.headers['sunset']]).toEqual([
      { id: 1, name: 'Rex', categoryId: 3, status: 'sold' },
      '"1-2"',
      undefined,
    ]);
  });
});

// Two patches at once meet in each store's own locking (the SQLite writer thread, PostgreSQL's rows).
describe.each(allBackends)('updatePet, If-Match on patches sent at once [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend });
    await t.storage.createPet({ name: 'Rex', categoryId: 3, status: 'available' });
  });

  it('of two patches sent at once with the same If-Match, applies exactly one; the other gets 412', async () => {
    for (let round = 1; round <= 5; round += 1) {
      const etag = `"1-${round}"`;
      const answers = await Promise.all(
        ['a', 'b'].map((name) => patch(t, '/v1/pets/1', { name: `${name}${round}` }).set('If-Match', etag)),
      );
      expect(answers.map((res) => res.status).sort()).toEqual([200, 412]);
      const winner = answers.find((res) => res.status === 200)!;
      expect(await t.storage.getPet(1)).toEqual({ pet: winner.body as unknown, version: round + 1 });
    }
  });

  it('without it, the last write wins', async () => {
    const answers = await Promise.all(['a', 'b', 'c'].map((name) => patch(t, '/v1/pets/1', { name })));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
    const versions = answers.map((res) => res.headers['etag']).sort();
    expect(versions).toEqual(['"1-2"', '"1-3"', '"1-4"']);
    const last = answers.find((res) => res.headers['etag'] === '"1-4"')!;
    expect((await t.storage.getPet(1))?.pet).toEqual(last.body);
  });
});
