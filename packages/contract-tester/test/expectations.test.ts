import { describe, expect, it } from 'vitest';
import { acceptsValidRequest, allowList, unechoedFields, unmetExpectations, type Expectation } from '../src/expectations.js';
import type { HttpResponse } from '../src/http-client.js';
import type { TestRequest } from '../src/requests.js';
import { readApiModel } from '../src/spec-model.js';
import { petStoreDocument } from './support/pet-store.js';

const api = readApiModel(petStoreDocument());
const operation = (id: string) => api.operations.find((candidate) => candidate.id === id)!;
const request: TestRequest = { method: 'GET', target: '/v1/pets/1', headers: [], credentials: { kind: 'none' } };

function response(status: number, body?: unknown, headers: HttpResponse['headers'] = {}): HttpResponse {
  const text = body === undefined ? '' : JSON.stringify(body);
  return { status, headers, bytes: Buffer.from(text), text, body };
}

const judge = (expectation: Partial<Expectation>, answer: HttpResponse) =>
  unmetExpectations({ kind: 'positive', operation: operation('getPet'), request, ...expectation }, answer);

describe('what each case must get', () => {
  it('a valid request: a documented status that is not a rejection or a 5xx', () => {
    expect([200, 404, 410].map((status) => acceptsValidRequest(operation('getPet'), status))).toEqual([true, true, true]);
    expect([400, 401, 405, 415, 422, 500, 503, 201].map((status) => acceptsValidRequest(operation('getPet'), status))).toEqual(
      Array(8).fill(false),
    );
    // An operation that documents no success at all is accepted with what it documents.
    expect(acceptsValidRequest(operation('listStoreOrders'), 501)).toBe(true);
    expect(judge({}, response(500, { code: 'internal_error' }))).toEqual([
      'a valid request must be accepted, but got 500 {"code":"internal_error"}',
    ]);
    expect(judge({ kind: 'head' }, response(405))).toEqual(['a valid request must be accepted, but got 405']);
  });

  it('a negative case: any 4xx, nothing else', () => {
    expect(judge({ kind: 'negative' }, response(404))).toEqual([]);
    expect(judge({ kind: 'negative' }, response(200, {}))[0]).toMatch(/must be refused with a 4xx, but got 200/);
    expect(judge({ kind: 'negative' }, response(500))[0]).toMatch(/but got 500/);
  });

  it('without valid credentials: 401 and nothing else', () => {
    expect(judge({ kind: 'authentication' }, response(401))).toEqual([]);
    expect(judge({ kind: 'authentication' }, response(404))[0]).toMatch(/must be 401, before anything else/);
  });

  it('a wrong method: a 4xx, and a 405 lists the methods of the path', () => {
    const wrong = { kind: 'method' as const, request: { ...request, method: 'PUT' }, allowed: ['GET', 'HEAD'] };
    expect(judge(wrong, response(405, undefined, { allow: 'GET, HEAD' }))).toEqual([]);
    expect(judge(wrong, response(405, undefined, { allow: 'GET' }))).toEqual(['Allow: GET leaves out HEAD']);
    expect(judge(wrong, response(405, undefined, { allow: 'GET, HEAD, PUT' }))).toEqual(['Allow lists PUT, which was refused']);
    expect(judge(wrong, response(200))[0]).toMatch(/PUT is not a method of this path/);
    expect(allowList(['GET, head', ' POST'])).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('a link from a success: a success', () => {
    expect(judge({ kind: 'link' }, response(404))[0]).toMatch(/a link from a success must lead to a success, but got 404/);
  });

  it('a body labelled JSON that is not', () => {
    expect(judge({ kind: 'negative' }, { ...response(400), bodyError: 'the body is not JSON: x' })).toEqual(['the body is not JSON: x']);
  });

  it('a create returns the fields it was sent', () => {
    const create: TestRequest = {
      method: 'POST',
      target: '/v1/pets',
      headers: [],
      credentials: { kind: 'none' },
      body: Buffer.from('{"name":"Rex","categoryId":3}'),
    };
    expect(unechoedFields(operation('createPet'), create, response(201, { id: 1, name: 'Rex', categoryId: 3 }))).toEqual([]);
    expect(unechoedFields(operation('createPet'), create, response(201, { id: 1, name: 'rex', categoryId: 3 }))).toEqual([
      'name was sent as "Rex" but came back as "rex"',
    ]);
    expect(unechoedFields(operation('createPet'), create, response(400, { code: 'x' }))).toEqual([]);
    expect(unechoedFields(operation('getPet'), request, response(200, {}))).toEqual([]);
  });
});
