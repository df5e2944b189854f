import { beforeEach, describe, expect, it } from 'vitest';
import { backends } from '../../support/backends.js';
import { rawRequest } from '../../support/raw-http.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

const MISSING = { code: 'missing_api_key', status: 401, message: 'Send an API key as "Authorization: Bearer <API_KEY>".' };
const INVALID = { code: 'invalid_api_key', status: 401, message: 'The API key is not valid: it is unknown or has been revoked.' };
const CHALLENGE = 'Bearer realm="pet-store"';

describe.each(backends)('authentication [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend });
  });

  it('accepts a valid key on every operation', async () => {
    await t.api.get('/v1/pets').set(t.auth).expect(200);
    await t.api.post('/v1/pets').set(t.auth).send({ name: 'Rex', categoryId: 1 }).expect(201);
    await t.api.get('/v1/pets/1').set(t.auth).expect(200);
  });

  it('answers 401 with a Bearer challenge when no key is sent', async () => {
    const res = await t.api.get('/v1/pets').expect(401);
    expect(res.body).toEqual(MISSING);
    expect(res.headers['www-authenticate']).toBe(CHALLENGE);
  });

  it.each([
    ['an unknown key', () => `Bearer psk_${'A'.repeat(43)}`],
    ['a key of the wrong shape', () => 'Bearer not-a-key'],
    ['a key with a character changed', (key: string) => `Bearer ${key.slice(0, -1)}${key.endsWith('A') ? 'B' : 'A'}`],
  ])('answers 401 invalid_token for %s', async (_label, header) => {
    const res = await t.api.get('/v1/pets').set('Authorization', header(t.key)).expect(401);
    expect(res.body).toEqual(INVALID);
    expect(res.headers['www-authenticate']).toMatch(/^Bearer realm="pet-store", error="invalid_token"/);
  });

  it.each(['bearer', 'BEARER', 'BeArEr'])('takes the scheme name %s case-insensitively', async (scheme) => {
    await t.api.get('/v1/pets').set('Authorization', `${scheme} ${t.key}`).expect(200);
  });

  it.each([
    ['the same key twice', (key: string) => [`Authorization: Bearer ${key}`, `Authorization: Bearer ${key}`]],
    ['a key and another header', (key: string) => [`Authorization: Bearer ${key}`, 'authorization: Basic eDp5']],
    ['another header and a key', (key: string) => [`AUTHORIZATION: Bearer psk_${'A'.repeat(43)}`, `Authorization: Bearer ${key}`]],
  ])('treats Authorization sent twice (%s) as no key: a proxy may have read the other one', async (_label, fields) => {
    const request = `GET /v1/pets HTTP/1.1\r\nHost: x\r\n${fields(t.key).join('\r\n')}\r\nConnection: close\r\n\r\n`;
    const res = await rawRequest(t.origin, request, { url: '/v1/pets' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(MISSING);
    expect(res.headers['www-authenticate']).toBe(CHALLENGE);
  });

  it.each([
    ['another scheme', (key: string) => `Basic ${key}`],
    ['the key without a scheme', (key: string) => key],
    ['an empty bearer token', () => 'Bearer '],
  ])('treats %s as no key', async (_label, header) => {
    const res = await t.api.get('/v1/pets').set('Authorization', header(t.key)).expect(401);
    expect(res.body).toEqual(MISSING);
    expect(res.headers['www-authenticate']).toBe(CHALLENGE);
  });

  it.each(['access_token', 'api_key', 'key'])('never accepts a key in the query string (%s)', async (name) => {
    const res = await t.api.get(`/v1/pets?${name}=${t.key}`).expect(401);
    expect(res.body).toEqual(MISSING);
  });

  it('refuses a revoked key on the very next request', async () => {
    await t.api.get('/v1/pets').set(t.auth).expect(200);
    const [record] = await t.storage.listApiKeys();
    expect(await t.storage.revokeApiKey(record!.id)).toBe('revoked');
    const res = await t.api.get('/v1/pets').set(t.auth).expect(401);
    expect(res.body).toEqual(INVALID);
  });

  describe('runs before everything else that could answer', () => {
    it.each([
      ['an unknown route', () => t.api.get('/v1/no-such-thing')],
      ['a wrong method', () => t.api.delete('/v1/pets')],
      ['a bad query', () => t.api.get('/v1/pets?limit=0&bogus=1')],
      ['a bad path parameter', () => t.api.get('/v1/pets/abc')],
      ['an invalid body', () => t.api.post('/v1/pets').send({ id: 1 })],
      ['malformed JSON', () => t.api.post('/v1/pets').set('Content-Type', 'application/json').send('{"name":')],
      ['a non-JSON body', () => t.api.post('/v1/pets').set('Content-Type', 'text/plain').send('Rex')],
      ['an oversized body', () => t.api.post('/v1/pets').send({ name: 'x'.repeat(100_000), categoryId: 1 })],
      ['the store orders', () => t.api.get('/v1/store/orders')],
    ])('%s without a key gets 401', async (_label, send) => {
      const res = await send().expect(401);
      expect(res.body).toEqual(MISSING);
    });

    it('an invalid key with an invalid body gets 401, not 400', async () => {
      const res = await t.api.post('/v1/pets').set('Authorization', 'Bearer nope').send({}).expect(401);
      expect(res.body).toEqual(INVALID);
    });
  });
});
