import { beforeEach, describe, expect, it } from 'vitest';
import { contractFromDocument, loadContract } from '../../../src/contract/contract.js';
import type { OpenApiDocument } from '../../../src/contract/spec.js';
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

/**
 * openapi.yaml with every kind of scheme: listPets takes HTTP basic, an X-Api-Key header, a cookie,
 * or a query key with the header together (the root's alternatives); getPet is open; everything
 * else takes bearer, as the pet store does.
 */
function documentWithSchemes(): OpenApiDocument {
  const document = structuredClone(loadContract().document);
  Object.assign(document.components['securitySchemes'] as object, {
    basicAuth: { type: 'http', scheme: 'basic' },
    headerKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
    cookieKey: { type: 'apiKey', in: 'cookie', name: 'session' },
    queryKey: { type: 'apiKey', in: 'query', name: 'access' },
  });
  document['security'] = [{ bearerAuth: [] }];
  const paths = document.paths as Record<string, Record<string, Record<string, unknown>>>;
  paths['/pets']!['get']!['security'] = [{ basicAuth: [] }, { headerKey: [] }, { cookieKey: [] }, { queryKey: [], headerKey: [] }];
  paths['/pets/{petId}']!['get']!['security'] = [];
  return document;
}

describe.each(backends)('authentication from the securitySchemes of any document [$name]', (backend) => {
  let t: TestApi;
  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.origin}${path}`, { headers });
  const basic = (account: string, key: string) => `Basic ${Buffer.from(`${account}:${key}`).toString('base64')}`;
  beforeEach(async () => {
    t = await createTestApi({ backend, contract: contractFromDocument(documentWithSchemes()) });
    await t.storage.createPet({ name: 'Rex', categoryId: 3 });
  });

  it('takes any one alternative of the operation: basic (account and key), a header, a cookie', async () => {
    const alternatives: Record<string, string>[] = [
      { Authorization: basic('tester', t.key) },
      { 'X-Api-Key': t.key },
      { Cookie: `theme=dark; session=${t.key}` },
      { Cookie: `session="${t.key}"` },
    ];
    for (const headers of alternatives) expect((await get('/v1/pets', headers)).status, JSON.stringify(Object.keys(headers))).toBe(200);
  });

  it('refuses basic with a key of another account, and a bearer key where the operation does not take bearer', async () => {
    const wrongAccount = await get('/v1/pets', { Authorization: basic('someone-else', t.key) });
    expect(wrongAccount.status).toBe(401);
    expect(((await wrongAccount.json()) as { code: string }).code).toBe('invalid_api_key');
    const bearer = await get('/v1/pets', { Authorization: `Bearer ${t.key}` });
    expect(bearer.status).toBe(401);
    expect(((await bearer.json()) as { code: string }).code).toBe('missing_api_key');
  });

  it('wants every scheme of a combined alternative: the query key alone is not enough', async () => {
    expect((await get(`/v1/pets?access=${t.key}`)).status).toBe(401);
    expect((await get(`/v1/pets?access=${t.key}`, { 'X-Api-Key': t.key })).status).toBe(200);
    expect((await get(`/v1/pets?access=psk_${'A'.repeat(43)}`, { 'X-Api-Key': t.key })).status).toBe(200);
  });

  it('challenges with every scheme the operation takes, and names them in the message', async () => {
    const res = await get('/v1/pets');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(
      'Basic realm="pet-store", charset="UTF-8", ApiKey realm="pet-store", in="header", name="X-Api-Key", ' +
        'ApiKey realm="pet-store", in="cookie", name="session", ApiKey realm="pet-store", in="query", name="access"',
    );
    expect(((await res.json()) as { message: string }).message).toBe(
      'Send an API key as "Authorization: Basic <base64 of ACCOUNT:API_KEY>" or "X-Api-Key: <API_KEY>" or the cookie "session" or ' +
        'the query parameter "access" and "X-Api-Key: <API_KEY>".',
    );
  });

  it('serves an open operation (security: []) without credentials, and still refuses bad ones sent to it', async () => {
    expect((await get('/v1/pets/1')).status).toBe(200);
    expect((await get('/v1/pets/1', { 'X-Api-Key': t.key, Authorization: `Bearer ${t.key}` })).status).toBe(200);
    expect((await get('/v1/pets/1', { Authorization: 'Bearer psk_nope' })).status).toBe(200);
  });

  it('counts failures of every scheme towards the failed-authentication limit, and lets a known key through the block', async () => {
    const limited = await createTestApi({
      backend,
      contract: contractFromDocument(documentWithSchemes()),
      rateLimits: { requestsPerKeyPerMinute: 0, failedAuthPerAddressPerMinute: 2 },
    });
    const at = (headers: Record<string, string>) => fetch(`${limited.origin}/v1/pets`, { headers }).then(({ status }) => status);
    expect(await at({ 'X-Api-Key': limited.key })).toBe(200);
    expect(await at({ Authorization: basic('tester', `psk_${'A'.repeat(43)}`) })).toBe(401);
    expect(await at({ Cookie: 'session=nope' })).toBe(401);
    expect(await at({ 'X-Api-Key': 'nope' })).toBe(429);
    expect(await at({ Authorization: basic('tester', `psk_${'B'.repeat(43)}`) })).toBe(429);
    // The key that authenticated before passes the block, in whichever scheme it comes.
    expect(await at({ Authorization: basic('tester', limited.key) })).toBe(200);
    expect(await at({ 'X-Api-Key': limited.key })).toBe(200);
  });

  it('keeps bearer, with its challenge, for the operations that take it, and 401 first on paths no operation has', async () => {
    const res = await fetch(`${t.origin}/v1/pets`, { method: 'POST', headers: { 'X-Api-Key': t.key } });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="pet-store"');
    const unknown = await get('/v1/nowhere');
    expect(unknown.status).toBe(401);
    // Any alternative of the document's is asked for: every challenge, once each.
    const challenges = unknown.headers.get('www-authenticate')!;
    expect(challenges).toContain('Bearer realm="pet-store"');
    expect(challenges).toContain('Basic realm="pet-store"');
    expect(challenges.match(/Bearer/g)).toHaveLength(1);
    expect((await get('/v1/nowhere', { 'X-Api-Key': t.key })).status).toBe(404);
  });
});
