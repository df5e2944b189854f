import { beforeEach, describe, expect, it } from 'vitest';
import { backends } from '../../support/backends.js';
import { createTestApi, openTestStorage, type TestApi } from '../../support/test-app.js';

describe.each(backends)('errors and protocol hygiene [$name]', (backend) => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi({ backend });
  });

  it.each(['/v1/no-such-thing', '/v1/pets/1/owner', '/v1', '/v2/pets'])('answers 404 route_not_found for %s', async (path) => {
    const res = await t.api.get(path).set(t.auth).expect(404);
    expect(res.body).toEqual({ code: 'route_not_found', status: 404, message: `No operation at GET ${path}.` });
  });

  it.each([
    ['delete', '/v1/pets', 'POST, GET, HEAD'],
    // Every method of the path, those of the deprecated getPet's neighbours (updatePet, deletePet) included.
    ['put', '/v1/pets/1', 'DELETE, PATCH, GET, HEAD'],
    ['post', '/v1/pets/1', 'DELETE, PATCH, GET, HEAD'],
    ['post', '/v1/store/orders', 'GET, HEAD'],
  ] as const)('answers 405 with Allow for %s %s', async (method, path, allow) => {
    const res = await t.api[method](path).set(t.auth).expect(405);
    expect(res.body).toEqual({
      code: 'method_not_allowed',
      status: 405,
      message: `${method.toUpperCase()} is not allowed here; use ${allow}.`,
    });
    expect(res.headers['allow']).toBe(allow);
  });

  it('answers GET /v1/store/orders with 501', async () => {
    const res = await t.api.get('/v1/store/orders').set(t.auth).expect(501);
    expect(res.body).toEqual({ code: 'not_implemented', status: 501, message: 'GET /v1/store/orders is not implemented yet.' });
  });

  it('answers an unexpected failure with a bare 500: no stack, no detail', async () => {
    const storage = await openTestStorage(backend);
    const failing = await createTestApi({ storage });
    storage.listPets = async () => {
      throw new Error('disk on fire at /var/lib/secret.db');
    };
    const res = await failing.api.get('/v1/pets').set(failing.auth).expect(500);
    expect(res.body).toEqual({
      code: 'internal_error',
      status: 500,
      message: 'The service failed to handle the request. Try again later.',
    });
    expect(res.text).not.toMatch(/disk on fire|secret|at .*\.ts/);
  });
});
