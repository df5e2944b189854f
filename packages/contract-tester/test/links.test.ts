import { describe, expect, it } from 'vitest';
import type { HttpResponse } from '../src/http-client.js';
import { evaluateExpression, linksFrom, linkSuppliedParameters, type Exchange } from '../src/links.js';
import { readApiModel } from '../src/spec-model.js';
import { petStoreDocument } from './support/pet-store.js';

const api = readApiModel(petStoreDocument());
const operation = (id: string) => api.operations.find((candidate) => candidate.id === id)!;
const ORIGIN = 'http://127.0.0.1:8080';

function exchange(
  id: string,
  target: string,
  status: number,
  body: unknown,
  headers: HttpResponse['headers'] = {},
  requestBody?: unknown,
): Exchange {
  const text = JSON.stringify(body);
  return {
    operation: operation(id),
    request: {
      method: operation(id).method.toUpperCase(),
      target,
      headers: [{ name: 'X-Trace', value: 't1' }],
      credentials: { kind: 'none' },
      ...(requestBody ? { body: Buffer.from(JSON.stringify(requestBody)) } : {}),
    },
    response: { status, headers, bytes: Buffer.from(text), text, body },
  };
}

describe('links', () => {
  const created = exchange(
    'createPet',
    '/v1/pets',
    201,
    { id: 42, name: 'Rex', categoryId: 3 },
    { location: '/v1/pets/42' },
    { name: 'Rex', categoryId: 3 },
  );

  it('evaluate runtime expressions against the request and the response', () => {
    const page = exchange('getPet', '/v1/pets/7?x=1', 200, { id: 7 });
    expect(evaluateExpression('$response.body#/id', created, '/v1')).toBe(42);
    expect(evaluateExpression('$request.body#/name', created, '/v1')).toBe('Rex');
    expect(evaluateExpression('$response.header.Location', created, '/v1')).toBe('/v1/pets/42');
    expect(evaluateExpression('$request.path.petId', page, '/v1')).toBe('7');
    expect(evaluateExpression('$request.header.x-trace', page, '/v1')).toBe('t1');
    expect(evaluateExpression('$statusCode', created, '/v1')).toBe(201);
    expect(evaluateExpression('$method', created, '/v1')).toBe('POST');
    expect(evaluateExpression('pets/{$response.body#/id}', created, '/v1')).toBe('pets/42');
    expect(evaluateExpression(5, created, '/v1')).toBe(5);
    expect(() => evaluateExpression('$response.trailer.x', created, '/v1')).toThrow(/unsupported runtime expression/);
  });

  it('make the target request of a parameter link: getPet by the new id', () => {
    const [step] = linksFrom(api, created, ORIGIN);
    expect(step).toMatchObject({
      target: { id: 'getPet' },
      request: { method: 'GET', target: '/v1/pets/42', credentials: { kind: 'key' } },
    });
    expect(linksFrom(api, { ...created, response: { ...created.response, status: 400 } }, ORIGIN)).toEqual([]);
  });

  it('follow a Link header entry unchanged, when it leads to the operation', () => {
    const page = (link: string) => exchange('listPets', '/v1/pets?limit=2', 200, [], { link });
    const [next] = linksFrom(api, page('</v1/pets?limit=2&cursor=cDE6Mg>; rel="next"'), ORIGIN);
    expect(next).toMatchObject({ target: { id: 'listPets' }, request: { method: 'GET', target: '/v1/pets?limit=2&cursor=cDE6Mg' } });
    expect(linksFrom(api, page('</v1/pets>; rel="prev"'), ORIGIN)).toEqual([]);
    expect(linksFrom(api, exchange('listPets', '/v1/pets', 200, []), ORIGIN)).toEqual([]);
    expect(linksFrom(api, page('<https://elsewhere.example/v1/pets?cursor=x>; rel="next"'), ORIGIN)).toEqual([
      'Link rel="next" leads off the deployment, to https://elsewhere.example',
    ]);
    expect(linksFrom(api, page('</v1/pets/1>; rel="next"'), ORIGIN)).toEqual([
      'Link rel="next" leads to /v1/pets/1, which is not listPets (/pets)',
    ]);
    expect(linksFrom(api, page('</v1/pets?page=2>; rel="next"'), ORIGIN)).toEqual([
      'Link rel="next" carries page, which listPets does not take',
    ]);
  });

  it('name the optional parameters only a link supplies', () => {
    expect([...linkSuppliedParameters(api, operation('listPets'))]).toEqual(['cursor']);
    // petId is supplied by a link too, but it is required: a made-up one is a valid request (404).
    expect([...linkSuppliedParameters(api, operation('getPet'))]).toEqual([]);
  });
});
