import { beforeEach, describe, expect, it } from 'vitest';
import type { ErrorBody } from '../../../src/errors/api-error.js';
import type { Pet } from '../../../src/storage/pets/pets.js';
import { backends } from '../../support/backends.js';
import { PET_NAME_MAX_LENGTH, PET_STATUSES } from '../../support/spec-values.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

const ALLOWED_STATUSES = `must be equal to one of the allowed values: ${PET_STATUSES.join(', ')}`;

const MAX_SAFE = Number.MAX_SAFE_INTEGER;

describe.each(backends)('createPet [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend });
  });

  it('answers 201 with the pet, its new id, its ETag and a Location', async () => {
    const res = await t.api.post('/v1/pets').set(t.auth).send({ name: 'Rex', categoryId: 3, status: 'available' }).expect(201);
    expect(res.body).toEqual({ id: 1, name: 'Rex', categoryId: 3, status: 'available' });
    expect(res.headers['location']).toBe('/v1/pets/1');
    expect(res.headers['etag']).toBe('"1-1"');
    expect((await t.storage.getPet(1))?.pet).toEqual(res.body);
    // The tag the create answered is the one getPet answers, and the one a conditional update takes.
    expect((await t.api.get('/v1/pets/1').set(t.auth).expect(200)).headers['etag']).toBe(res.headers['etag']);
    await t.api.patch('/v1/pets/1').set(t.auth).set('If-Match', res.headers['etag']!).send({ status: 'sold' }).expect(200);
  });

  it('leaves an omitted status absent, never null', async () => {
    const res = await t.api.post('/v1/pets').set(t.auth).send({ name: 'Tom', categoryId: 4 }).expect(201);
    expect(res.body).toEqual({ id: 1, name: 'Tom', categoryId: 4 });
    expect(res.text).not.toContain('status');
  });

  it('keeps the largest safe integer exactly', async () => {
    const res = await t.api.post('/v1/pets').set(t.auth).send({ name: 'Big', categoryId: MAX_SAFE }).expect(201);
    expect((res.body as Pet).categoryId).toBe(MAX_SAFE);
  });

  it('assigns increasing ids', async () => {
    const ids: number[] = [];
    for (const name of ['a', 'b', 'c'])
      ids.push(((await t.api.post('/v1/pets').set(t.auth).send({ name, categoryId: 1 }).expect(201)).body as Pet).id);
    expect(ids).toEqual([1, 2, 3]);
  });

  it.each([
    ['name missing', { categoryId: 1 }, 'body.name is required'],
    ['categoryId missing', { name: 'Rex' }, 'body.categoryId is required'],
    ['both missing', {}, 'body.name is required; body.categoryId is required'],
    ['categoryId as a string', { name: 'Rex', categoryId: '5' }, 'body.categoryId must be integer'],
    [
      'categoryId fractional',
      { name: 'Rex', categoryId: 1.5 },
      'body.categoryId must be integer; body.categoryId must match format "int64"',
    ],
    ['categoryId zero', { name: 'Rex', categoryId: 0 }, 'body.categoryId must be >= 1'],
    [
      'categoryId 1e20',
      { name: 'Rex', categoryId: 1e20 },
      'body.categoryId must be <= 9007199254740991; body.categoryId must match format "int64"',
    ],
    ['name as a number', { name: 5, categoryId: 1 }, 'body.name must be string'],
    ['name empty', { name: '', categoryId: 1 }, 'body.name must NOT have fewer than 1 characters; body.name must match pattern "\\S"'],
    ['name only white space', { name: '   ', categoryId: 1 }, 'body.name must match pattern "\\S"'],
    [
      `name over ${PET_NAME_MAX_LENGTH} characters`,
      { name: 'x'.repeat(PET_NAME_MAX_LENGTH + 1), categoryId: 1 },
      `body.name must NOT have more than ${PET_NAME_MAX_LENGTH} characters`,
    ],
    ['status null', { name: 'Rex', categoryId: 1, status: null }, `body.status must be string; body.status ${ALLOWED_STATUSES}`],
    ['status unknown', { name: 'Rex', categoryId: 1, status: 'lost' }, `body.status ${ALLOWED_STATUSES}`],
    ['status in capitals', { name: 'Rex', categoryId: 1, status: 'SOLD' }, `body.status ${ALLOWED_STATUSES}`],
    ['an id', { id: 7, name: 'Rex', categoryId: 1 }, 'body.id is not a field of this request; remove it'],
    ['an unknown property', { name: 'Rex', categoryId: 1, colour: 'brown' }, 'body.colour is not a field of this request; remove it'],
    ['an array body', [{ name: 'Rex', categoryId: 1 }], 'body must be object'],
  ])('rejects %s with 400', async (_label, body, sentence) => {
    const res = await t.api.post('/v1/pets').set(t.auth).send(body).expect(400);
    expect(res.body).toEqual({ code: 'validation_failed', status: 400, message: `Invalid request: ${sentence}.` });
    expect(await t.storage.listPets({ limit: 10 })).toEqual([]);
  });

  it.each([
    ['2^53', '9007199254740992'],
    ['2^53 + 1 (which JSON.parse would round)', '9007199254740993'],
    ['-(2^53 - 1)', '-9007199254740991'],
  ])('rejects categoryId %s, never rounding it', async (_label, digits) => {
    const res = await t.api
      .post('/v1/pets')
      .set(t.auth)
      .set('Content-Type', 'application/json')
      .send(`{"name":"Rex","categoryId":${digits}}`)
      .expect(400);
    expect((res.body as ErrorBody).code).toBe('validation_failed');
    expect((res.body as ErrorBody).message).toMatch(/^Invalid request: body\.categoryId must be/);
  });

  it('accepts an explicit UTF-8 charset', async () => {
    await t.api
      .post('/v1/pets')
      .set(t.auth)
      .set('Content-Type', 'application/json; charset=UTF-8')
      .send('{"name":"Zoë","categoryId":1}')
      .expect(201);
  });

  it('rejects malformed JSON with 400 malformed_json', async () => {
    const res = await t.api.post('/v1/pets').set(t.auth).set('Content-Type', 'application/json').send('{"name": "Rex",').expect(400);
    expect(res.body).toEqual({ code: 'malformed_json', status: 400, message: 'The request body is not well-formed JSON.' });
  });

  it.each([
    ['a JSON string', '"Rex"'],
    ['a JSON number', '5'],
    ['null', 'null'],
  ])('rejects %s as the body with 400: the schema takes an object', async (_label, text) => {
    const res = await t.api.post('/v1/pets').set(t.auth).set('Content-Type', 'application/json').send(text).expect(400);
    expect(res.body).toEqual({ code: 'validation_failed', status: 400, message: 'Invalid request: body must be object.' });
  });

  it('rejects a body that cannot be decoded with 400 malformed_json', async () => {
    const res = await t.api
      .post('/v1/pets')
      .set(t.auth)
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send('not gzip')
      .expect(400);
    expect(res.body).toEqual({ code: 'malformed_json', status: 400, message: 'The request body could not be read as JSON.' });
  });

  it('rejects a missing body with 400', async () => {
    const res = await t.api.post('/v1/pets').set(t.auth).set('Content-Type', 'application/json').expect(400);
    expect((res.body as ErrorBody).code).toBe('validation_failed');
  });

  it.each([
    ['text/plain', 'Rex'],
    ['application/x-www-form-urlencoded', 'name=Rex&categoryId=1'],
    ['application/xml', '<pet/>'],
  ])('rejects a %s body with 415', async (type, text) => {
    const res = await t.api.post('/v1/pets').set(t.auth).set('Content-Type', type).send(text).expect(415);
    expect(res.body).toEqual({
      code: 'unsupported_media_type',
      status: 415,
      message: 'Send the body as JSON with "Content-Type: application/json".',
    });
  });

  it.each(['utf-16', 'iso-8859-1'])('rejects JSON in charset %s with 415', async (charset) => {
    const res = await t.api.post('/v1/pets').set(t.auth).set('Content-Type', `application/json; charset=${charset}`).send('{}').expect(415);
    expect(res.body).toEqual({
      code: 'unsupported_media_type',
      status: 415,
      message: 'Send the body as UTF-8 JSON without content encoding.',
    });
  });

  it('rejects a body over the documented limit with 413', async () => {
    const res = await t.api
      .post('/v1/pets')
      .set(t.auth)
      .send({ name: 'x'.repeat(20_000), categoryId: 1 })
      .expect(413);
    expect(res.body).toEqual({ code: 'payload_too_large', status: 413, message: 'The request body is larger than 16384 bytes.' });
  });

  it('accepts a body just under the limit (it is then judged on its fields)', async () => {
    const res = await t.api
      .post('/v1/pets')
      .set(t.auth)
      .send({ name: 'x'.repeat(16_000), categoryId: 1 })
      .expect(400);
    expect((res.body as ErrorBody).message).toBe(`Invalid request: body.name must NOT have more than ${PET_NAME_MAX_LENGTH} characters.`);
  });
});
