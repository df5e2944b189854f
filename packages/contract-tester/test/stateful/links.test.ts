import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import type { HttpResponse } from '../../src/http/http-client.js';
import { parseSpec } from '../../src/spec/load.js';
import { readApiModel } from '../../src/spec/model.js';
import { splitTarget } from '../../src/generate/requests.js';
import { jsonText, parseExactJson } from '../../src/generate/json-text.js';
import {
  evaluateExpression,
  evaluateRequestBody,
  linksFrom,
  linkSuppliedParameters,
  type Exchange,
  type LinkContext,
} from '../../src/stateful/links.js';
import { petStoreDocument } from '../support/pet-store.js';
import { BOARD_SPEC } from '../support/test-bed/board.js';

const api = readApiModel(petStoreDocument());
const board = readApiModel(parseSpec(readFileSync(BOARD_SPEC, 'utf8')));
const operation = (id: string, model = api) => model.operations.find((candidate) => candidate.id === id)!;
const ORIGIN = 'http://127.0.0.1:8080';
const context: LinkContext = { origin: ORIGIN, credentialsFor: () => ({ kind: 'valid', credentials: [] }) };

function exchange(
  id: string | ReturnType<typeof operation>,
  target: string,
  status: number,
  body: unknown,
  headers: HttpResponse['headers'] = {},
  requestBody?: unknown,
): Exchange {
  const text = jsonText(body);
  const of = typeof id === 'string' ? operation(id) : id;
  return {
    operation: of,
    request: {
      method: of.method.toUpperCase(),
      target,
      headers: [{ name: 'X-Trace', value: 't1' }],
      credentials: { kind: 'none' },
      ...(requestBody ? { body: Buffer.from(JSON.stringify(requestBody)) } : {}),
    },
    response: { status, headers, bytes: Buffer.from(text), text, body, elapsedMs: 1 },
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
    // A body literal with expressions among its members: each is evaluated, the rest kept.
    expect(evaluateRequestBody({ petId: '$response.body#/id', quantity: 1, tags: ['$request.body#/name', 'x'] }, created, '/v1')).toEqual({
      petId: 42,
      quantity: 1,
      tags: ['Rex', 'x'],
    });
    expect(evaluateExpression('$method', created, '/v1')).toBe('POST');
    expect(evaluateExpression('pets/{$response.body#/id}', created, '/v1')).toBe('pets/42');
    expect(evaluateExpression(5, created, '/v1')).toBe(5);
    expect(() => evaluateExpression('$response.trailer.x', created, '/v1')).toThrow(/unsupported runtime expression/);
  });

  it('make the target request of a parameter link: getPet by the new id', () => {
    const [step] = linksFrom(api, created, context);
    expect(step).toMatchObject({
      target: { id: 'getPet' },
      request: { method: 'GET', target: '/v1/pets/42', credentials: { kind: 'valid' } },
    });
    expect(linksFrom(api, { ...created, response: { ...created.response, status: 400 } }, context)).toEqual([]);
  });

  it('send an id past 2^53 back digit for digit', () => {
    const text = '{"id":9223372036854775807,"name":"Rex","categoryId":3}';
    const big = exchange('createPet', '/v1/pets', 201, parseExactJson(text), {}, { name: 'Rex', categoryId: 3 });
    expect(evaluateExpression('$response.body#/id', big, '/v1')).toBe(9223372036854775807n);
    expect(evaluateExpression('pets/{$response.body#/id}', big, '/v1')).toBe('pets/9223372036854775807');
  });

  it('follow a Link header entry unchanged, when it leads to the operation', () => {
    const page = (link: string) => exchange('listPets', '/v1/pets?limit=2', 200, [], { link });
    const [next] = linksFrom(api, page('</v1/pets?limit=2&cursor=cDE6Mg>; rel="next"'), context);
    expect(next).toMatchObject({ target: { id: 'listPets' }, request: { method: 'GET', target: '/v1/pets?limit=2&cursor=cDE6Mg' } });
    expect(linksFrom(api, page('</v1/pets>; rel="prev"'), context)).toEqual([]);
    expect(linksFrom(api, exchange('listPets', '/v1/pets', 200, []), context)).toEqual([]);
    expect(linksFrom(api, page('<https://elsewhere.example/v1/pets?cursor=x>; rel="next"'), context)).toEqual([
      'Link rel="next" leads off the deployment, to https://elsewhere.example',
    ]);
    expect(linksFrom(api, page('</v1/pets/1>; rel="next"'), context)).toEqual([
      'Link rel="next" leads to /v1/pets/1, which is not listPets (/pets)',
    ]);
    expect(linksFrom(api, page('</v1/pets?page=2>; rel="next"'), context)).toEqual([
      'Link rel="next" carries page, which listPets does not take',
    ]);
  });

  it('follow links by operationRef, and make the body a link does not give to an operation that takes one', () => {
    const game = exchange(operation('createGame', board), '/v1/games', 201, { gameId: 5, board: [], winner: '.' });
    const made = linksFrom(board, game, { ...context, bodyFor: () => ({ mediaType: 'application/json', value: 'X' }) });
    expect(
      made.map((step) =>
        typeof step === 'string'
          ? step
          : `${step.target.id} ${step.request.method} ${step.request.target} ${step.request.body?.toString() ?? ''}`,
      ),
    ).toEqual(['getGame GET /v1/games/5 ', 'markSquare PUT /v1/games/5/squares/2/2 "X"']);
    // Without a body to give, a link to an operation that needs one is not followed.
    expect(linksFrom(board, game, context)).toHaveLength(1);
    // Nor one whose parameter the response lacks.
    expect(linksFrom(board, exchange(operation('createGame', board), '/v1/games', 201, {}), context)).toEqual([]);
  });

  it('split a target into path and query', () => {
    expect(splitTarget('/a?b=1?c')).toEqual(['/a', 'b=1?c']);
    expect(splitTarget('/a')).toEqual(['/a', undefined]);
  });

  it('name the optional parameters only a link supplies', () => {
    expect([...linkSuppliedParameters(api, operation('listPets'))]).toEqual(['cursor']);
    // petId is supplied by a link too, but it is required: a made-up one is a valid request (404).
    expect([...linkSuppliedParameters(api, operation('getPet'))]).toEqual([]);
  });
});
