import { describe, expect, it } from 'vitest';
import { ContractChecker, type ObservedResponse } from '../src/response-contract.js';
import { petStoreDocument } from './support/pet-store.js';

const checker = new ContractChecker(petStoreDocument());
const HYGIENE = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', 'x-request-id': 'r-1' };
const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
const pet = { id: 1, name: 'Rex', categoryId: 3 };
const DEPRECATION = { deprecation: '@1795219200', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT', link: '</v1/pets>; rel="successor-version"' };

function observed(parts: Partial<ObservedResponse>): ObservedResponse {
  const body = parts.body;
  return {
    method: 'GET',
    url: '/v1/pets',
    status: 200,
    body,
    text: body === undefined ? '' : JSON.stringify(body),
    ...parts,
    headers: { ...HYGIENE, ...JSON_TYPE, ...parts.headers },
  };
}

const error = (status: number, code: string) => ({ code, message: 'x', status });

describe('the contract check of a response', () => {
  it('passes responses that keep the contract', () => {
    expect(checker.violations(observed({ body: [pet] }))).toEqual([]);
    expect(checker.violations(observed({ method: 'POST', status: 201, body: pet, headers: { location: '/v1/pets/1' } }))).toEqual([]);
    expect(
      checker.violations(observed({ url: '/v1/pets/9', status: 404, body: error(404, 'pet_not_found'), headers: DEPRECATION })),
    ).toEqual([]);
    expect(checker.violations(observed({ url: '/healthz', body: { status: 'ok' } }))).toEqual([]);
  });

  it('refuses a status the operation does not document', () => {
    expect(checker.violations(observed({ method: 'POST', status: 200, body: pet }))).toEqual([
      'POST /v1/pets → 200: status 200 is not documented for createPet',
    ]);
  });

  it('refuses a body against its schema, and a missing or invalid header', () => {
    const [body] = checker.violations(observed({ body: [{ id: 1, name: 'Rex' }] }));
    expect(body).toMatch(
      /body breaks the contract \(\/paths\/~1pets\/get\/responses\/200\/content\/application~1json\/schema\): data\/0 must have required property 'categoryId'/,
    );
    expect(checker.violations(observed({ method: 'POST', status: 201, body: pet }))).toEqual([
      'POST /v1/pets → 201: required header Location is missing',
    ]);
    expect(checker.violations(observed({ url: '/v1/pets/1', body: pet, headers: { ...DEPRECATION, deprecation: undefined } }))).toEqual([
      'GET /v1/pets/1 → 200: required header Deprecation is missing',
    ]);
  });

  it('refuses another content type, and a body where none is documented', () => {
    expect(checker.violations(observed({ body: [], headers: { 'content-type': 'text/plain' } }))).toEqual([
      'GET /v1/pets → 200: Content-Type text/plain is not one documented (application/json)',
    ]);
    expect(checker.violations(observed({ status: 304, text: 'x' }))).toEqual([
      'GET /v1/pets → 304: the spec documents no body, but one was sent',
    ]);
  });

  it('holds every error to the Error object and its code table', () => {
    expect(checker.violations(observed({ status: 400, body: error(400, 'validation_failed') }))).toEqual([]);
    expect(checker.violations(observed({ status: 400, body: error(404, 'validation_failed') }))).toEqual([
      'GET /v1/pets → 400: Error.status 404 differs from the HTTP status',
    ]);
    expect(checker.violations(observed({ status: 400, body: error(400, 'pet_not_found') }))).toEqual([
      'GET /v1/pets → 400: the spec gives code pet_not_found another status',
    ]);
    expect(checker.violations(observed({ status: 400, body: undefined, text: '', headers: { 'content-type': undefined } }))).toContain(
      'GET /v1/pets → 400: an error must be application/json',
    );
  });

  it('requires the headers of every response, and Allow on a 405', () => {
    expect(
      checker.violations(
        observed({ body: [], headers: { 'x-content-type-options': undefined, 'cache-control': 'max-age=60', 'x-powered-by': 'Express' } }),
      ),
    ).toEqual([
      'GET /v1/pets → 200: X-Powered-By must not be sent',
      'GET /v1/pets → 200: X-Content-Type-Options: nosniff is missing',
      'GET /v1/pets → 200: Cache-Control: no-store is missing',
    ]);
    expect(checker.violations(observed({ method: 'PUT', status: 405, body: error(405, 'method_not_allowed') }))).toEqual([
      'PUT /v1/pets → 405: a 405 must carry Allow (RFC 9110 §15.5.6)',
    ]);
  });

  it('matches paths exactly: another spelling is no operation and may not succeed or fail with a 5xx', () => {
    for (const url of ['/v1/pets/', '/V1/pets', '/v1/Pets', '/v1//pets']) {
      expect(checker.violations(observed({ url, body: [] }))).toEqual([
        `GET ${url} → 200: success from a path and method the spec does not have`,
      ]);
    }
    expect(checker.violations(observed({ url: '/v1/store/orders/', status: 501, body: error(501, 'not_implemented') }))).toEqual([
      'GET /v1/store/orders/ → 501: status 501 for a path and method the spec does not have',
    ]);
    expect(checker.route('GET', '/v1/pets/1?x=1')?.operation.operationId).toBe('getPet');
  });

  it('checks HEAD as GET without a body', () => {
    expect(checker.route('HEAD', '/v1/pets')?.operation.operationId).toBe('listPets');
    expect(checker.violations(observed({ method: 'HEAD', text: '' }))).toEqual([]);
    expect(
      checker.violations(observed({ method: 'HEAD', status: 401, text: '', headers: { 'www-authenticate': 'Bearer realm="pet-store"' } })),
    ).toEqual([]);
    expect(checker.violations(observed({ method: 'HEAD', text: '[]' }))).toEqual([
      'HEAD /v1/pets → 200: a response to HEAD must not have a body',
    ]);
    expect(checker.violations(observed({ method: 'HEAD', url: '/v1/pets/1', text: '' }))).toEqual([
      'HEAD /v1/pets/1 → 200: required header Deprecation is missing',
      'HEAD /v1/pets/1 → 200: required header Sunset is missing',
      'HEAD /v1/pets/1 → 200: required header Link is missing',
    ]);
  });

  it('throws every violation at once from check()', () => {
    expect(() => checker.check(observed({ method: 'POST', status: 201, body: {} }))).toThrow(
      /required header Location[\s\S]*must have required property 'id'/,
    );
  });
});
