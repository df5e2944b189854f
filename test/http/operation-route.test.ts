import { describe, expect, it } from 'vitest';
import { apiError } from '../../src/errors/api-error.js';
import type { OperationHandlers, OperationRequest, RecordedResponse } from '../../src/handlers/operation.js';
import type { HandlerOutcome } from '../../src/http/operation-route.js';
import { createTestApi, type TestApi } from '../support/test-app.js';

/** The adapter, seen through the app with these handlers in place of the real ones. */
function withHandlers(handlers: Partial<OperationHandlers>): Promise<TestApi> {
  return createTestApi({ handlers });
}

describe('the operation adapter', () => {
  it('gives the handler the validated, typed request and the caller', async () => {
    let seen: OperationRequest<'listPets'> | undefined;
    const t = await withHandlers({
      listPets: async (request) => {
        seen = request;
        return { status: 200, body: [] };
      },
    });
    await t.api.get('/v1/pets?status=sold').set(t.auth).expect(200);
    const { render, ...rest } = seen!;
    expect(rest).toEqual({
      path: {},
      query: { limit: 20, status: 'sold' },
      headers: {},
      body: undefined,
      principal: { keyId: 1, accountId: 1, accountName: 'tester' },
    });
    expect(render).toBeTypeOf('function');
  });

  it('passes the header parameters the operation declares, $ref or not, by their names in the spec', async () => {
    let headers: unknown;
    const t = await withHandlers({
      createPet: async (request) => {
        headers = request.headers;
        return { status: 201, body: { id: 1, name: 'Rex', categoryId: 1 }, headers: { Location: '/v1/pets/1', ETag: '"1-1"' } };
      },
    });
    await t.api.post('/v1/pets').set(t.auth).set('Idempotency-Key', '"k"').set('X-Other', 'x').send({ name: 'Rex', categoryId: 1 });
    expect(headers).toEqual({ 'Idempotency-Key': '"k"' });
  });

  it('renders a result as it would write it, and writes a recorded one byte for byte; a replay gets Idempotent-Replayed', async () => {
    let rendered: RecordedResponse | undefined;
    const t = await withHandlers({
      createPet: async ({ render, headers }) => {
        rendered ??= render({
          status: 201,
          body: { id: 5, name: 'Rëx', categoryId: 1 },
          headers: { Location: '/v1/pets/5', ETag: '"5-1"' },
        });
        return { recorded: rendered, replayed: headers['Idempotency-Key'] === 'again' };
      },
    });
    const first = await t.api.post('/v1/pets').set(t.auth).set('Idempotency-Key', 'first').send({ name: 'Rex', categoryId: 1 }).expect(201);
    expect(rendered).toEqual({
      status: 201,
      headers: { Location: '/v1/pets/5', ETag: '"5-1"' },
      body: Buffer.from('{"id":5,"name":"Rëx","categoryId":1}'),
    });
    expect(first.text).toBe('{"id":5,"name":"Rëx","categoryId":1}');
    expect(first.headers['content-length']).toBe(String(Buffer.byteLength(first.text)));
    expect(first.headers['location']).toBe('/v1/pets/5');
    expect(first.headers['idempotent-replayed']).toBeUndefined();

    const again = await t.api.post('/v1/pets').set(t.auth).set('Idempotency-Key', 'again').send({ name: 'Rex', categoryId: 1 }).expect(201);
    expect(again.text).toBe(first.text);
    expect(again.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('passes path parameters as the spec types them (petId a number)', async () => {
    let petId: unknown;
    const t = await withHandlers({
      getPet: async (request) => {
        petId = request.path.petId;
        return { status: 200, body: { id: 12, name: 'Rex', categoryId: 1 }, headers: { ETag: '"12-1"' } };
      },
    });
    await t.api.get('/v1/pets/12').set(t.auth).expect(200);
    expect(petId).toBe(12);
  });

  it("writes the result's status, headers and body, serialised from the response schema", async () => {
    const t = await withHandlers({
      createPet: async () => ({
        status: 201,
        body: { id: 5, name: 'Rex', categoryId: 1 },
        headers: { Location: '/v1/pets/5', ETag: '"5-1"' },
      }),
    });
    const res = await t.api.post('/v1/pets').set(t.auth).send({ name: 'Rex', categoryId: 1 }).expect(201);
    expect(res.headers['location']).toBe('/v1/pets/5');
    expect(res.headers['etag']).toBe('"5-1"');
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.text).toBe('{"id":5,"name":"Rex","categoryId":1}');
  });

  it('leaves out what the schema does not have, as the compiled serialiser does', async () => {
    const t = await withHandlers({
      getPet: async () => ({ status: 200, body: { id: 1, name: 'Rex', categoryId: 1, secret: 'x' } as never, headers: { ETag: '"1-1"' } }),
    });
    const res = await t.api.get('/v1/pets/1').set(t.auth).expect(200);
    expect(res.text).toBe('{"id":1,"name":"Rex","categoryId":1}');
  });

  it('answers a fresh conditional GET 304 without a body', async () => {
    const t = await withHandlers({});
    const res = await t.api.get('/v1/pets').set(t.auth).set('If-None-Match', '*').expect(304);
    expect(res.text).toBe('');
  });

  it('answers 304 with the ETag when If-None-Match lists the ETag the result sets, weakly compared', async () => {
    const t = await withHandlers({
      getPet: async () => ({ status: 200, body: { id: 1, name: 'Rex', categoryId: 1 }, headers: { ETag: '"1-2"' } }),
    });
    for (const tags of ['"1-2"', 'W/"1-2"', '"1-1", "1-2"']) {
      const res = await t.api.get('/v1/pets/1').set(t.auth).set('If-None-Match', tags).expect(304);
      expect(res.text).toBe('');
      expect(res.headers['etag']).toBe('"1-2"');
    }
    await t.api.get('/v1/pets/1').set(t.auth).set('If-None-Match', '"1-1"').expect(200);
  });

  it('sends an error the handler raises as the Error object', async () => {
    const t = await withHandlers({ listPets: () => Promise.reject(apiError('invalid_cursor')) });
    const res = await t.api.get('/v1/pets').set(t.auth).expect(400);
    expect(res.body).toMatchObject({ code: 'invalid_cursor', status: 400 });
  });

  it('writes a result a handler returns at once, and sends an error it throws at once as the Error object', async () => {
    const t = await withHandlers({
      getPet: ({ path: { petId } }) => {
        if (petId === 2) throw apiError('pet_not_found', { petId });
        return { status: 200, body: { id: 1, name: 'Rex', categoryId: 1 }, headers: { ETag: '"1-1"' } };
      },
    });
    const found = await t.api.get('/v1/pets/1').set(t.auth).expect(200);
    expect(found.text).toBe('{"id":1,"name":"Rex","categoryId":1}');
    expect(found.headers['etag']).toBe('"1-1"');
    await t.api.get('/v1/pets/1').set(t.auth).set('If-None-Match', '"1-1"').expect(304);
    const missing = await t.api.get('/v1/pets/2').set(t.auth).expect(404);
    expect(missing.body).toMatchObject({ code: 'pet_not_found', status: 404 });
  });

  it("gives a check each handler's outcome before it is written, and answers the check's error instead where it gives one", async () => {
    const seen: HandlerOutcome[] = [];
    const t = await createTestApi({
      handlers: {
        getPet: ({ path: { petId } }) => ({
          status: 200,
          body: { id: petId, name: 'Rex', categoryId: 1 },
          headers: { ETag: `"${petId}-1"` },
        }),
      },
      checkOutcomes: (req, _res, outcome) => {
        seen.push(outcome);
        return req.path === '/pets/2' ? apiError('pet_not_found', { petId: 2 }) : undefined;
      },
    });
    const passed = await t.api.get('/v1/pets/1').set(t.auth).expect(200);
    expect(passed.body).toEqual({ id: 1, name: 'Rex', categoryId: 1 });
    const refused = await t.api.get('/v1/pets/2').set(t.auth).expect(404);
    expect(refused.body).toMatchObject({ code: 'pet_not_found', status: 404 });
    expect(seen).toEqual([
      { status: 200, body: { id: 1, name: 'Rex', categoryId: 1 }, headers: { ETag: '"1-1"' } },
      { status: 200, body: { id: 2, name: 'Rex', categoryId: 1 }, headers: { ETag: '"2-1"' } },
    ]);
  });
});
