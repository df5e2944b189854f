import { beforeEach, describe, expect, it } from 'vitest';
import { issueApiKey } from '../../../src/auth/api-keys.js';
import type { ErrorBody } from '../../../src/errors/api-error.js';
import { allBackends } from '../../support/backends.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

const DAY_MS = 86_400_000;
const rex = { name: 'Rex', categoryId: 3, status: 'available' };

describe.each(allBackends)('createPet with an Idempotency-Key [$name]', (backend) => {
  let t: TestApi;
  const clock = { now: new Date('2030-01-01T00:00:00.000Z') };
  beforeEach(async () => {
    clock.now = new Date('2030-01-01T00:00:00.000Z');
    t = await createTestApi({ backend, clock: () => clock.now });
  });

  const create = (key: string | undefined, body: object = rex, auth = t.auth) => {
    const request = t.api.post('/v1/pets').set(auth);
    return (key === undefined ? request : request.set('Idempotency-Key', key)).send(body);
  };
  const petCount = async () => (await t.storage.listPets({ limit: 100 })).length;

  it('replays the first response to a retry: same status, same bytes, same Location, plus Idempotent-Replayed', async () => {
    const first = await create('"8e03978e-40d5-43e8-bc93-6894a57f9324"').expect(201);
    expect(first.body).toEqual({ id: 1, ...rex });
    expect(first.headers['location']).toBe('/v1/pets/1');
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    for (const key of ['"8e03978e-40d5-43e8-bc93-6894a57f9324"', '8e03978e-40d5-43e8-bc93-6894a57f9324']) {
      const retry = await create(key, { status: 'available', categoryId: 3, name: 'Rex' }).expect(201);
      expect(retry.text).toBe(first.text);
      expect(retry.headers['location']).toBe('/v1/pets/1');
      expect(retry.headers['content-type']).toBe(first.headers['content-type']);
      expect(retry.headers['idempotent-replayed']).toBe('true');
    }
    expect(await petCount()).toBe(1);
    // Without a key, the same body is a new pet.
    expect((await create(undefined).expect(201)).body).toEqual({ id: 2, ...rex });
  });

  it('answers 422 idempotency_key_reused to the same key with another body, and creates nothing', async () => {
    await create('k1').expect(201);
    const res = await create('k1', { ...rex, name: 'Rexy' }).expect(422);
    expect(res.body).toEqual({
      code: 'idempotency_key_reused',
      message: 'This Idempotency-Key was already used with a different request body; send a new key for a new request.',
      status: 422,
    } satisfies ErrorBody);
    expect(await petCount()).toBe(1);
  });

  it('records nothing for a request rejected before it ran: corrected, it goes through with the same key', async () => {
    await create('k1', { name: 'Rex' }).expect(400);
    await t.api.post('/v1/pets').set(t.auth).set('Idempotency-Key', 'k1').set('Content-Type', 'text/plain').send('Rex').expect(415);
    await create('k1', { name: 'x'.repeat(20_000), categoryId: 1 }).expect(413);
    const res = await create('k1').expect(201);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
    expect(await petCount()).toBe(1);
  });

  it('keeps keys per account', async () => {
    const { key: other } = await issueApiKey(t.storage, 'other');
    const mine = await create('shared').expect(201);
    const theirs = await create('shared', rex, { Authorization: `Bearer ${other}` }).expect(201);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(theirs.body).toEqual({ id: 2, ...rex });
    expect((await create('shared').expect(201)).text).toBe(mine.text);
    expect(await petCount()).toBe(2);
  });

  it('treats a key as new once its record has expired (24 hours by default)', async () => {
    await create('k1').expect(201);
    clock.now = new Date(clock.now.getTime() + DAY_MS - 1);
    expect((await create('k1').expect(201)).headers['idempotent-replayed']).toBe('true');
    clock.now = new Date(clock.now.getTime() + 1);
    const renewed = await create('k1', { ...rex, name: 'Tom' }).expect(201);
    expect(renewed.body).toEqual({ id: 2, ...rex, name: 'Tom' });
    expect(renewed.headers['idempotent-replayed']).toBeUndefined();
  });

  it.each([
    ['the longest bare key', 'k'.repeat(255)],
    ['the longest String', `"${'\\"'.repeat(255)}"`],
    ['a String with spaces and escapes', '"a b \\\\ \\" c"'],
    ['a bare key of every allowed character', "!#$%&'*+-.^_`|~:/09AZaz"],
  ])('accepts %s', async (_, key) => {
    await create(key).expect(201);
    expect((await create(key).expect(201)).headers['idempotent-replayed']).toBe('true');
  });

  it.each([
    ['an empty String', '""'],
    ['a bare key of 256 characters', 'k'.repeat(256)],
    ['a String of 256 characters', `"${'k'.repeat(256)}"`],
    ['a bare key with a space', 'two words'],
    ['an unterminated String', '"abc'],
    ['a String with a bare quote inside', '"a"b"'],
    ['a String with an unknown escape', '"a\\nb"'],
    ['a String with parameters', '"abc";v=1'],
    ['two keys', '"a", "b"'],
    ['a bare key with a comma', 'a,b'],
  ])('rejects %s with 400 naming the header', async (_, key) => {
    const res = await create(key).expect(400);
    expect((res.body as ErrorBody).code).toBe('validation_failed');
    expect((res.body as ErrorBody).message).toMatch(/^Invalid request: headers\.idempotency-key must match pattern /);
    expect(await petCount()).toBe(0);
  });
});
