import { beforeEach, describe, expect, it } from 'vitest';
import { backends } from '../../support/backends.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

/** Every way of writing 1 (or a number) that is not canonical decimal. */
const NON_CANONICAL = [
  '0x1',
  '0X1',
  '0b1',
  '0o1',
  '%201',
  '1%20',
  '%2B1',
  '+1',
  '1.0',
  '1.',
  '.1e1',
  '1e0',
  '1E0',
  '00001',
  '01',
  '-0',
  '1_0',
  '１',
  'Infinity',
  '-Infinity',
  'NaN',
  '1e400',
  '%091',
  '1%0A',
];

describe.each(backends)('integers in the path and query, canonical decimal only [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend });
    await t.storage.createPet({ name: 'Rex', categoryId: 3 });
  });

  it.each(NON_CANONICAL)('refuses petId %s with 400 naming the parameter', async (petId) => {
    const res = await t.api.get(`/v1/pets/${petId}`).set(t.auth).expect(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', status: 400 });
    expect((res.body as { message: string }).message).toMatch(/path\.petId/);
  });

  it.each(NON_CANONICAL)('refuses limit=%s with 400 naming the parameter', async (limit) => {
    const res = await t.api.get(`/v1/pets?limit=${limit}`).set(t.auth).expect(400);
    expect(res.body).toMatchObject({ code: 'validation_failed', status: 400 });
    expect((res.body as { message: string }).message).toMatch(/query\.limit/);
  });

  it.each([
    ['a 400-digit petId', `/v1/pets/${'9'.repeat(400)}`, 'path.petId'],
    ['a 10,000-digit petId', `/v1/pets/${'1'.repeat(10_000).slice(0, 8000)}`, 'path.petId'],
    ['a 400-digit limit', `/v1/pets?limit=${'9'.repeat(400)}`, 'query.limit'],
    ['2^53 as petId', '/v1/pets/9007199254740992', 'path.petId'],
  ])('refuses %s within the bounds check, never reaching storage', async (_label, url, field) => {
    const res = await t.api.get(url).set(t.auth).expect(400);
    expect((res.body as { message: string }).message).toContain(field);
  });

  it.each([
    ['1', 200],
    ['%31', 200],
    ['2', 404],
    ['9007199254740991', 404],
  ])('serves petId %s as it should (%i)', async (petId, status) => {
    await t.api.get(`/v1/pets/${petId}`).set(t.auth).expect(status);
  });

  it.each([
    ['a query that is not percent-encoded UTF-8', '/v1/pets?limit=%ZZ', 'the URL is not valid percent-encoding'],
    ['an overlong UTF-8 sequence in the query', '/v1/pets?status=%C0%AF', 'the URL is not valid percent-encoding'],
    ['a CESU-8 surrogate in the query', '/v1/pets?cursor=%ED%A0%80', 'the URL is not valid percent-encoding'],
    ['NUL in a query value', '/v1/pets?status=sold%00', 'query.status must not contain NUL (U+0000)'],
    ['NUL in a query name', '/v1/pets?limit%00=5', 'query.limit\\u0000 must not contain NUL (U+0000)'],
  ])('refuses %s with 400', async (_label, url, sentence) => {
    const res = await t.api.get(url).set(t.auth).expect(400);
    expect(res.body).toEqual({ code: 'validation_failed', status: 400, message: `Invalid request: ${sentence}.` });
  });

  it('still lets the validator name empty and repeated values in its own words', async () => {
    const empty = await t.api.get('/v1/pets?limit=').set(t.auth).expect(400);
    expect((empty.body as { message: string }).message).toBe("Invalid request: Empty value found for query parameter 'limit'.");
    const repeated = await t.api.get('/v1/pets?limit=5&limit=6').set(t.auth).expect(400);
    expect((repeated.body as { message: string }).message).toBe('Invalid request: query.limit must be integer.');
  });

  it('authenticates first: a bad integer without a key is 401', async () => {
    await t.api.get('/v1/pets/0x1').expect(401);
    await t.api.get('/v1/pets?limit=1e400').expect(401);
  });
});
