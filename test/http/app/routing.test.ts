import { beforeEach, describe, expect, it } from 'vitest';
import { backends } from '../../support/backends.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

const VARIANTS = [
  '/v1/Pets',
  '/v1/PETS',
  '/v1/pets/',
  '/v1/pets/1/',
  '/v1/Pets/1',
  '/v1//pets',
  '/v1/pets//1',
  '/v1/pet%73',
  '/v1/pets;x',
  '/v1/store/orders/',
  '/v1/',
];

describe.each(backends)('routing: paths exactly as openapi.yaml spells them [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend });
    await t.storage.createPet({ name: 'Rex', categoryId: 3 });
  });

  it.each(VARIANTS)('answers %s with 404 route_not_found', async (path) => {
    const res = await t.api.get(path).set(t.auth).expect(404);
    expect(res.body).toEqual({ code: 'route_not_found', status: 404, message: `No operation at GET ${path}.` });
  });

  it.each(VARIANTS)('authenticates %s first: 401 without a key', async (path) => {
    await t.api.get(path).expect(401);
  });

  it.each(['/V1/pets', '/V1/PETS', '/v1.0/pets', '/api/v1/pets'])('answers %s, outside the base path, with 404', async (path) => {
    const res = await t.api.get(path).expect(404);
    expect((res.body as { code: string }).code).toBe('route_not_found');
  });

  it.each(['/HEALTHZ', '/healthz/', '/openapi.JSON', '/openapi.json/'])(
    'matches the public routes exactly too: %s is 404',
    async (path) => {
      await t.api.get(path).expect(404);
    },
  );

  it('serves the paths as written', async () => {
    await t.api.get('/v1/pets').set(t.auth).expect(200);
    await t.api.get('/v1/pets/1').set(t.auth).expect(200);
  });
});
