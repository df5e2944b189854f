import { beforeEach, describe, expect, it } from 'vitest';
import { createPetStoreClient } from 'petstore-client';
import { backends } from '../../support/backends.js';
import { rawRequest } from '../../support/raw-http.js';
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

  it('answers 304 to If-None-Match sent with Cache-Control: no-cache, as fetch() sends it (RFC 9111 §5.2.1.4)', async () => {
    const res = await rawRequest(
      t.origin,
      `GET /v1/pets/1 HTTP/1.1\r\nHost: x\r\nAuthorization: ${t.auth.Authorization}\r\nCache-Control: no-cache\r\nPragma: no-cache\r\nIf-None-Match: "1-1"\r\n\r\n`,
      { url: '/v1/pets/1' },
    );
    expect([res.status, res.text, res.headers['etag']]).toEqual([304, '', '"1-1"']);
  });

  it("answers 304 to the project's client, whose fetch() adds Cache-Control: no-cache", async () => {
    const sent: Request[] = [];
    const client = createPetStoreClient({
      baseUrl: `${t.origin}/v1`,
      apiKey: t.key,
      onDeprecation: () => {},
      fetch: (request) => {
        sent.push(request.clone());
        return fetch(request);
      },
    });
    const read = await client.GET('/pets/{petId}', { params: { path: { petId: 1 } } });
    const etag = read.response.headers.get('etag')!;
    const again = await client.GET('/pets/{petId}', { params: { path: { petId: 1 }, header: { 'If-None-Match': etag } } });
    expect(again.response.status).toBe(304);
    expect(again.data).toBeUndefined();
    expect(sent[1]?.headers.get('if-none-match')).toBe('"1-1"');
  });

  it.each([
    ['its ETag', '"1-1"', 304],
    ['*', '*', 304],
    ['another tag', '"1-0"', 412],
    ['its ETag, weak (If-Match compares strongly)', 'W/"1-1"', 412],
  ])('evaluates If-Match with %s before If-None-Match (RFC 9110 §13.2.2)', async (_label, tags, status) => {
    const res = await t.api.get('/v1/pets/1').set(t.auth).set('If-Match', tags).set('If-None-Match', '"1-1"').expect(status);
    if (status === 412) expect(res.body).toMatchObject({ code: 'precondition_failed', status: 412 });
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
