import { beforeEach, describe, expect, it } from 'vitest';
import { contractFromDocument, loadContract } from '../../../src/contract/contract.js';
import type { ErrorBody } from '../../../src/errors/api-error.js';
import { backends } from '../../support/backends.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

const SUNSET = new Date('2030-12-05T00:00:00Z');
const DEPRECATION_HEADERS = {
  deprecation: `@${Date.UTC(2026, 10, 21) / 1000}`,
  sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
  link: '</v1/pets>; rel="successor-version"; title="GET /v1/pets with the status filter"',
};

describe.each(backends)('deprecation headers and sunsets, from x-deprecation [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend });
    await t.storage.createPet({ name: 'Rex', categoryId: 3, status: 'available' });
  });

  it.each([
    ['200', (x: TestApi) => x.api.get('/v1/pets/1').set(x.auth), 200],
    ['404', (x: TestApi) => x.api.get('/v1/pets/2').set(x.auth), 404],
    ['400', (x: TestApi) => x.api.get('/v1/pets/abc').set(x.auth), 400],
    ['401', (x: TestApi) => x.api.get('/v1/pets/1'), 401],
  ])('marks the %s response with Deprecation, Sunset and a Link to the replacement', async (_label, send, status) => {
    const res = await send(t).expect(status);
    expect(res.headers).toMatchObject(DEPRECATION_HEADERS);
  });

  it('leaves other operations unmarked', async () => {
    const res = await t.api.get('/v1/pets').set(t.auth).expect(200);
    expect(res.headers['deprecation']).toBeUndefined();
    expect(res.headers['sunset']).toBeUndefined();
  });

  it('still answers one millisecond before the sunset', async () => {
    const early = await createTestApi({ backend, clock: () => new Date(SUNSET.getTime() - 1) });
    await early.storage.createPet({ name: 'Rex', categoryId: 3 });
    await early.api.get('/v1/pets/1').set(early.auth).expect(200);
  });

  it('answers 410 from the sunset instant on', async () => {
    for (const now of [SUNSET, new Date('2031-06-01T00:00:00Z')]) {
      const late = await createTestApi({ backend, clock: () => now });
      await late.storage.createPet({ name: 'Rex', categoryId: 3 });
      const res = await late.api.get('/v1/pets/1').set(late.auth).expect(410);
      expect(res.body).toEqual({
        code: 'operation_sunset',
        status: 410,
        message: 'GET /v1/pets/{petId} was removed on Thu, 05 Dec 2030 00:00:00 GMT; use GET /v1/pets with the status filter.',
      });
      expect(res.headers).toMatchObject(DEPRECATION_HEADERS);
      // Authentication still comes first after the sunset, and other operations carry on.
      await late.api.get('/v1/pets/1').expect(401);
      await late.api.get('/v1/pets').set(late.auth).expect(200);
    }
  });

  it('applies to any operation the spec marks deprecated, with no code change', async () => {
    const document = structuredClone(loadContract().document);
    const listPets = document.paths['/pets']!['get'] as { responses: Record<string, unknown> };
    listPets.responses['410'] = { $ref: '#/components/responses/Gone' };
    Object.assign(listPets, {
      deprecated: true,
      'x-deprecation': { deprecatedAt: '2027-01-01T00:00:00Z', sunsetAt: '2028-01-01T00:00:00Z', replacement: { href: '/v2/pets' } },
    });
    const contract = contractFromDocument(document);
    const before = await createTestApi({ backend, contract, clock: () => new Date('2027-06-01T00:00:00Z') });
    const res = await before.api.get('/v1/pets').set(before.auth).expect(200);
    expect(res.headers).toMatchObject({
      deprecation: `@${Date.UTC(2027, 0, 1) / 1000}`,
      sunset: 'Sat, 01 Jan 2028 00:00:00 GMT',
      link: '</v2/pets>; rel="successor-version"',
    });
    const after = await createTestApi({ backend, contract, clock: () => new Date('2028-01-01T00:00:00Z') });
    const gone = await after.api.get('/v1/pets').set(after.auth).expect(410);
    expect((gone.body as ErrorBody).code).toBe('operation_sunset');
  });
});
