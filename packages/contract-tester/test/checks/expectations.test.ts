import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  allowList,
  intentOf,
  unechoedFields,
  unmetExpectations,
  type Expectation,
  type Strictness,
} from '../../src/checks/expectations.js';
import type { TestRequest } from '../../src/generate/requests.js';
import type { HttpResponse } from '../../src/http/http-client.js';
import { parseSpec } from '../../src/spec/load.js';
import { readApiModel } from '../../src/spec/model.js';
import { petStoreDocument } from '../support/pet-store.js';
import { minimalSpec } from '../support/semantics/minimal.js';
import { BOARD_SPEC } from '../support/test-bed/board.js';
import { GALLERY_SPEC } from '../support/test-bed/gallery.js';

const api = readApiModel(petStoreDocument());
const gallery = readApiModel(parseSpec(readFileSync(GALLERY_SPEC, 'utf8')));
const board = readApiModel(parseSpec(readFileSync(BOARD_SPEC, 'utf8')));
const operation = (id: string, model = api) => model.operations.find((candidate) => candidate.id === id)!;
const request: TestRequest = { method: 'GET', target: '/v1/pets/1', headers: [], credentials: { kind: 'none' } };

function response(status: number, body?: unknown, headers: HttpResponse['headers'] = {}): HttpResponse {
  const text = body === undefined ? '' : JSON.stringify(body);
  return { status, headers, bytes: Buffer.from(text), text, body, elapsedMs: 1 };
}

const judge = (expectation: Partial<Expectation>, answer: HttpResponse, strict: Strictness = {}) =>
  unmetExpectations({ kind: 'positive', operation: operation('getPet'), request, ...expectation }, answer, strict).map(
    ({ check, message }) => `${check}: ${message}`,
  );

describe('what each case must get', () => {
  it('a valid request: no rejection (a status that says the request is malformed) and no server error', () => {
    expect([200, 404, 410, 403, 409, 422].flatMap((status) => judge({}, response(status)))).toEqual([]);
    expect(judge({}, response(400, { code: 'x' }))).toEqual([
      'positive_data_acceptance: GET /v1/pets/1 → a valid request must be accepted, but got 400 {"code":"x"}',
    ]);
    expect([401, 405, 415, 431].map((status) => judge({}, response(status)).length)).toEqual([1, 1, 1, 1]);
    expect(judge({}, response(500, { code: 'internal_error' }))).toEqual([
      'not_a_server_error: GET /v1/pets/1 → a server error: 500 {"code":"internal_error"}',
    ]);
    // An operation that documents nothing but a 501 (and its errors) answers it until it is implemented.
    const { responses } = operation('listStoreOrders');
    const unimplemented = {
      ...operation('listStoreOrders'),
      responses: [
        ...responses.filter(({ status }) => /^4/.test(status)),
        { ...responses.find(({ status }) => status === '500')!, status: '501' },
      ],
    };
    expect(judge({ operation: unimplemented }, response(501))).toEqual([]);
    expect(judge({ operation: operation('listStoreOrders') }, response(501))).toHaveLength(1);
    expect(judge({ kind: 'head' }, response(405))).toEqual([
      'head_as_get: GET /v1/pets/1 → HEAD must be answered as GET is (RFC 9110 §9.3.2), but got 405',
    ]);
  });

  it("a valid write refused with a 400 it documents: the state's refusal, unless valid_writes_accepted", () => {
    const mark = { operation: operation('markSquare', board), request: { ...request, method: 'PUT' } };
    expect(judge(mark, response(400))).toEqual([]);
    expect(judge(mark, response(400), { writes: true })).toEqual([
      'valid_writes_accepted: PUT /v1/pets/1 → a valid request must be accepted, but got 400',
    ]);
    // A read is never refused by the state with 400.
    expect(judge({ operation: operation('getSquare', board) }, response(400))).toHaveLength(1);
  });

  it('a documented 401 from an operation that asks no credentials: the state (a user it does not know), not a rejection', () => {
    const token = readApiModel(
      minimalSpec(
        {
          '/token': {
            post: {
              operationId: 'token',
              security: [],
              responses: { '200': { description: 'a token' }, '401': { description: 'unknown user or password' } },
            },
          },
          '/undocumented': { post: { operationId: 'undocumented', security: [], responses: { '200': { description: 'ok' } } } },
          '/me': { get: { operationId: 'me', responses: { '200': { description: 'me' }, '401': { description: 'no key' } } } },
        },
        { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
        { security: [{ bearer: [] }] },
      ),
    );
    const post = { ...request, method: 'POST', target: '/token' };
    expect(judge({ operation: operation('token', token), request: post }, response(401))).toEqual([]);
    // Undocumented, or to the credentials the tester was given: refused.
    expect(judge({ operation: operation('undocumented', token), request: post }, response(401))).toHaveLength(1);
    expect(judge({ operation: operation('me', token) }, response(401))).toHaveLength(1);
  });

  it('a valid request whose request line passes 8000 octets may be refused for it (414, 431), a shorter one not', () => {
    const long = { ...request, target: `/v1/pets?tags=${'a'.repeat(8000)}` };
    expect(judge({ request: long }, response(414))).toEqual([]);
    expect(judge({ request: long }, response(431))).toEqual([]);
    expect(judge({}, response(414))).toHaveLength(1);
    expect(judge({ request: long }, response(400))).toHaveLength(1);
  });

  it('a profile may narrow the client errors a valid request may get (state_refusals)', () => {
    expect(judge({}, response(409), { stateRefusals: [404] })).toEqual([
      'state_refusals: GET /v1/pets/1 → a valid request may be refused only with 404, but got 409',
    ]);
    expect(judge({}, response(404), { stateRefusals: [404] })).toEqual([]);
  });

  it('an invalid request: any 4xx (a server error is one, not a rejection)', () => {
    expect(judge({ kind: 'negative' }, response(404))).toEqual([]);
    expect(judge({ kind: 'negative' }, response(200, {}))).toEqual([
      'negative_data_rejection: GET /v1/pets/1 → a request that breaks the contract must be refused with a 4xx, but got 200 {}',
    ]);
    expect(judge({ kind: 'negative', rejectionCheck: 'missing_required_header' }, response(200))[0]).toMatch(/^missing_required_header: /);
    expect(judge({ kind: 'negative' }, response(500))).toEqual(['not_a_server_error: GET /v1/pets/1 → a server error: 500']);
  });

  it('without valid credentials: no success (ignored_auth); 401 and nothing else (auth_first)', () => {
    expect(judge({ kind: 'unauthenticated' }, response(404))).toEqual([]);
    expect(judge({ kind: 'unauthenticated' }, response(200))[0]).toMatch(/^ignored_auth: .* must not succeed, but got 200/);
    expect(judge({ kind: 'auth-first' }, response(401))).toEqual([]);
    expect(judge({ kind: 'auth-first' }, response(404))[0]).toMatch(/^auth_first: .*must be 401, before anything else/);
  });

  it('a wrong method: refused, and a 405 lists the methods of the path, not the one refused', () => {
    const wrong = { kind: 'method' as const, request: { ...request, method: 'PUT' }, allowed: ['GET', 'HEAD'] };
    expect(judge(wrong, response(405, undefined, { allow: 'GET, HEAD' }))).toEqual([]);
    expect(judge(wrong, response(404))).toEqual([]);
    expect(judge(wrong, response(405, undefined, { allow: 'GET' }))).toEqual([
      'allow_header_conformance: PUT /v1/pets/1 → Allow: GET leaves out HEAD',
    ]);
    expect(judge(wrong, response(405, undefined, { allow: 'GET, HEAD, PUT' }))).toEqual([
      'allow_header_conformance: PUT /v1/pets/1 → Allow lists PUT, which was refused',
    ]);
    expect(judge(wrong, response(200))[0]).toMatch(/^unsupported_method: PUT \/v1\/pets\/1 → PUT is not a method of this path/);
    expect(allowList(['GET, head', ' POST'])).toEqual(['GET', 'HEAD', 'POST']);
  });

  it('OPTIONS: its Allow, if any, lists the methods of the path', () => {
    const options = { kind: 'options' as const, request: { ...request, method: 'OPTIONS' }, allowed: ['GET', 'POST'] };
    expect(judge(options, response(204, undefined, { allow: 'GET, POST, OPTIONS' }))).toEqual([]);
    expect(judge(options, response(204))).toEqual([]);
    expect(judge(options, response(405, undefined, { allow: 'GET' }))).toEqual([]);
    expect(judge(options, response(200, undefined, { allow: 'GET' }))).toEqual([
      'allow_header_conformance: OPTIONS /v1/pets/1 → Allow: GET leaves out POST',
    ]);
  });

  it('a path the spec does not have: refused', () => {
    expect(judge({ kind: 'unknown-path' }, response(404))).toEqual([]);
    expect(judge({ kind: 'unknown-path' }, response(200))[0]).toMatch(/^exact_paths: /);
  });

  it('tell the response checker what the request was', () => {
    expect((['positive', 'link', 'negative', 'unauthenticated', 'auth-first', 'method'] as const).map(intentOf)).toEqual([
      'valid',
      'valid',
      'invalid',
      'unauthenticated',
      'unauthenticated',
      'invalid',
    ]);
  });
});

describe('write_echo', () => {
  const create: TestRequest = {
    method: 'POST',
    target: '/v1/pets',
    headers: [],
    credentials: { kind: 'none' },
    body: Buffer.from('{"name":"Rex","categoryId":3}'),
  };

  it('a create returns the fields it was sent', () => {
    expect(unechoedFields(operation('createPet'), create, response(201, { id: 1, name: 'Rex', categoryId: 3 }))).toEqual([]);
    expect(unechoedFields(operation('createPet'), create, response(201, { id: 1, name: 'rex', categoryId: 3 }))).toEqual([
      { check: 'write_echo', message: 'name was sent as "Rex" but came back as "rex"' },
    ]);
    expect(unechoedFields(operation('createPet'), create, response(400, { code: 'x' }))).toEqual([]);
    expect(unechoedFields(operation('getPet'), request, response(200, {}))).toEqual([]);
  });

  it('an update (PATCH, a merge patch) returns what it set, and not what it removed with null', () => {
    const patch: TestRequest = { ...create, method: 'PATCH', body: Buffer.from('{"title":"New","room":null}') };
    const update = operation('updateExhibition', gallery);
    expect(unechoedFields(update, patch, response(200, { exhibitionId: 'x', title: 'New', price: 1, dates: [] }))).toEqual([]);
    expect(unechoedFields(update, patch, response(200, { title: 'Old', room: 'East' })).map(({ message }) => message)).toEqual([
      'title was sent as "New" but came back as "Old"',
      'room was removed (null) but came back as "East"',
    ]);
    // A body made from a value (a form) is compared by that value.
    expect(unechoedFields(update, { ...patch, body: Buffer.from('title=x') }, response(200, { title: 'x' }), { title: 'x' })).toEqual([]);
  });
});
