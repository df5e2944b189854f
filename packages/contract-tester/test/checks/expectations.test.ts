import { describe, expect, it } from 'vitest';
import { intentOf, unechoedFields, unmetExpectations, type Expectation, type Strictness } from '../../src/checks/expectations.js';
import type { TestRequest } from '../../src/generate/requests.js';
import type { HttpResponse } from '../../src/http/http-client.js';
import { answered, BOARD_API, GET_PET, operationOf } from '../support/case-answer.js';

const judge = (expectation: Partial<Expectation>, answer: HttpResponse, strict: Strictness = {}) =>
  unmetExpectations({ kind: 'positive', operation: operationOf('getPet'), request: GET_PET, ...expectation }, answer, strict).map(
    ({ check, message }) => `${check}: ${message}`,
  );

describe('what each case must get: the checks of its kind, each finding named and placed', () => {
  it('a valid request: its rejection, and a server error (which no check of a refusal reports too)', () => {
    expect([200, 404, 410, 403, 409, 422].flatMap((status) => judge({}, answered(status)))).toEqual([]);
    expect(judge({}, answered(400, { code: 'x' }))).toEqual([
      'positive_data_acceptance: GET /v1/pets/1 → a valid request must be accepted, but got 400 {"code":"x"}',
    ]);
    expect(judge({}, answered(500, { code: 'internal_error' }))).toEqual([
      'not_a_server_error: GET /v1/pets/1 → a server error: 500 {"code":"internal_error"}',
    ]);
    expect(judge({ kind: 'link' }, answered(415))[0]).toMatch(/^positive_data_acceptance: /);
  });

  it("a valid request's refusal is positive_data_acceptance's first, then the profile's stricter rules'", () => {
    const mark = { operation: operationOf('markSquare', BOARD_API), request: { ...GET_PET, method: 'PUT' } };
    expect(judge(mark, answered(400))).toEqual([]);
    expect(judge(mark, answered(400), { writes: true, stateRefusals: [404] })).toEqual([
      'valid_writes_accepted: PUT /v1/pets/1 → a valid request must be accepted, but got 400',
    ]);
    expect(judge({}, answered(400), { writes: true, stateRefusals: [404] })).toEqual([
      'positive_data_acceptance: GET /v1/pets/1 → a valid request must be accepted, but got 400',
    ]);
    expect(judge({}, answered(409), { stateRefusals: [404] })).toEqual([
      'state_refusals: GET /v1/pets/1 → a valid request may be refused only with 404, but got 409',
    ]);
  });

  it('an invalid request: under the check it was built for, negative_data_rejection unless it names one', () => {
    expect(judge({ kind: 'negative' }, answered(404))).toEqual([]);
    expect(judge({ kind: 'negative' }, answered(200, {}))).toEqual([
      'negative_data_rejection: GET /v1/pets/1 → a request that breaks the contract must be refused with a 4xx, but got 200 {}',
    ]);
    expect(judge({ kind: 'negative', rejectionCheck: 'missing_required_header' }, answered(200))[0]).toMatch(/^missing_required_header: /);
    expect(judge({ kind: 'negative', rejectionCheck: 'canonical_numbers' }, answered(200))[0]).toMatch(/^canonical_numbers: /);
    expect(judge({ kind: 'negative' }, answered(500))).toEqual(['not_a_server_error: GET /v1/pets/1 → a server error: 500']);
  });

  it('HEAD, requests without valid credentials and unknown paths: the check each is built for', () => {
    expect(judge({ kind: 'head' }, answered(405))).toEqual([
      'head_as_get: GET /v1/pets/1 → HEAD must be answered as GET is (RFC 9110 §9.3.2), but got 405',
    ]);
    expect(judge({ kind: 'unauthenticated' }, answered(404))).toEqual([]);
    expect(judge({ kind: 'unauthenticated' }, answered(200))[0]).toMatch(/^ignored_auth: .* must not succeed, but got 200/);
    expect(judge({ kind: 'auth-first' }, answered(401))).toEqual([]);
    expect(judge({ kind: 'auth-first' }, answered(404))[0]).toMatch(/^auth_first: .*must be 401, before anything else/);
    expect(judge({ kind: 'unknown-path' }, answered(404))).toEqual([]);
    expect(judge({ kind: 'unknown-path' }, answered(200))[0]).toMatch(
      /^exact_paths: GET \/v1\/pets\/1 → a path the spec does not have must be refused with a 4xx, but got 200/,
    );
    expect(judge({ kind: 'unknown-path' }, answered(500))).toEqual(['not_a_server_error: GET /v1/pets/1 → a server error: 500']);
  });

  it('a wrong method: served is unsupported_method, a wrong Allow allow_header_conformance; OPTIONS its Allow', () => {
    const wrong = { kind: 'method' as const, request: { ...GET_PET, method: 'PUT' }, allowed: ['GET', 'HEAD'] };
    expect(judge(wrong, answered(405, undefined, { allow: 'GET, HEAD' }))).toEqual([]);
    expect(judge(wrong, answered(405, undefined, { allow: 'GET, PUT' }))).toEqual([
      'allow_header_conformance: PUT /v1/pets/1 → Allow: GET, PUT leaves out HEAD',
      'allow_header_conformance: PUT /v1/pets/1 → Allow lists PUT, which was refused',
    ]);
    expect(judge(wrong, answered(200))[0]).toMatch(/^unsupported_method: PUT \/v1\/pets\/1 → PUT is not a method of this path/);
    const options = { kind: 'options' as const, request: { ...GET_PET, method: 'OPTIONS' }, allowed: ['GET', 'POST'] };
    expect(judge(options, answered(200, undefined, { allow: 'GET' }))).toEqual([
      'allow_header_conformance: OPTIONS /v1/pets/1 → Allow: GET leaves out POST',
    ]);
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

  it("name write_echo's findings", () => {
    const create: TestRequest = { ...GET_PET, method: 'POST', target: '/v1/pets', body: Buffer.from('{"name":"Rex","categoryId":3}') };
    expect(unechoedFields(operationOf('createPet'), create, answered(201, { id: 1, name: 'rex', categoryId: 3 }))).toEqual([
      { check: 'write_echo', message: 'name was sent as "Rex" but came back as "rex"' },
    ]);
  });
});
