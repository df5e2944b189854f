import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildRequest, headerText, parameterText, percentEncode, positiveParts, setParameter, type RequestParts } from '../src/requests.js';
import { isValid } from '../src/schema-validator.js';
import { readApiModel } from '../src/spec-model.js';
import { petStoreDocument } from './support/pet-store.js';

const api = readApiModel(petStoreDocument());
const operation = (id: string) => api.operations.find((candidate) => candidate.id === id)!;
const sample = (id: string, linkSupplied = new Set<string>()) =>
  fc.sample(positiveParts(operation(id), '/v1', { linkSupplied }), { numRuns: 200, seed: 5 });

describe('valid requests', () => {
  it('fill the path, send the key by the scheme, and a valid JSON body', () => {
    for (const parts of sample('createPet')) {
      const request = buildRequest(parts);
      expect(request).toMatchObject({ method: 'POST', target: '/v1/pets', credentials: { kind: 'key', schemes: [{ type: 'bearer' }] } });
      expect(request.headers.find(({ name }) => name === 'Content-Type')?.value).toMatch(/^application\/json(; charset=utf-8)?$/);
      expect(isValid(operation('createPet').body!.schema, JSON.parse(request.body!.toString('utf8')))).toBe(true);
    }
    const targets = sample('getPet').map((parts) => buildRequest(parts).target);
    expect(targets.every((target) => /^\/v1\/pets\/[1-9][0-9]*$/.test(target))).toBe(true);
  });

  it('send optional query parameters now and then, always valid', () => {
    const queries = sample('listPets').map((parts) => new URLSearchParams(buildRequest(parts).target.split('?')[1] ?? ''));
    expect(queries.some((query) => query.size === 0)).toBe(true);
    expect(queries.some((query) => query.has('limit') && query.has('status'))).toBe(true);
    for (const query of queries) {
      if (query.has('limit')) expect(Number(query.get('limit'))).toBeGreaterThanOrEqual(1);
      if (query.has('status')) expect(['available', 'pending', 'sold']).toContain(query.get('status'));
    }
  });

  it('leave out optional parameters only links supply', () => {
    expect(sample('listPets').some((parts) => parts.query.some(([name]) => name === 'cursor'))).toBe(true);
    expect(sample('listPets', new Set(['cursor'])).some((parts) => parts.query.some(([name]) => name === 'cursor'))).toBe(false);
  });
});

describe('request parts', () => {
  const base: RequestParts = {
    method: 'GET',
    path: '/v1/pets/{petId}',
    pathParameters: {},
    query: [],
    headers: [],
    credentials: { kind: 'none' },
  };
  const petId = operation('getPet').parameters[0]!;

  it('set, replace and remove one parameter wherever it goes', () => {
    const header = { name: 'X-Trace', in: 'header' as const, required: false, schema: {} };
    const cookie = { name: 'session', in: 'cookie' as const, required: false, schema: {} };
    const query = operation('listPets').parameters[0]!;
    let parts = setParameter(base, petId, '7');
    parts = setParameter(setParameter(parts, query, '5'), query, '6');
    parts = setParameter(parts, header, 'a');
    parts = setParameter(setParameter(parts, cookie, 'x'), cookie, 'y');
    expect(buildRequest(parts)).toEqual({
      method: 'GET',
      target: '/v1/pets/7?limit=6',
      headers: [
        { name: 'X-Trace', value: 'a' },
        { name: 'Cookie', value: 'session=y' },
      ],
      credentials: { kind: 'none' },
    });
    expect(buildRequest(setParameter(setParameter(parts, query, undefined), header, undefined)).target).toBe('/v1/pets/7');
  });

  it('carry raw body bytes as they are, and a JSON value as JSON', () => {
    expect(buildRequest({ ...base, body: { mediaType: undefined, bytes: Buffer.from([0xff]) } })).toMatchObject({
      headers: [],
      body: Buffer.from([0xff]),
    });
    expect(buildRequest({ ...base, body: { mediaType: 'application/json', value: { a: 1 } } }).body?.toString()).toBe('{"a":1}');
  });

  it('percent-encode everything but unreserved characters', () => {
    expect(percentEncode(" a/b?c&d=é'(*)!")).toBe('%20a%2Fb%3Fc%26d%3D%C3%A9%27%28%2A%29%21');
    expect(parameterText(12)).toBe('12');
    expect(parameterText(false)).toBe('false');
    expect(parameterText([1])).toBe('[1]');
  });
});

describe('valid header parameters', () => {
  it('are printable ASCII without white space at the ends, within the schema', () => {
    const trace = { name: 'X-Trace', in: 'header' as const, required: true, schema: { type: 'string', minLength: 1, maxLength: 20 } };
    const operation = { id: 'x', method: 'get' as const, path: '/x', parameters: [trace], credentials: [], responses: [] };
    const values = fc.sample(positiveParts(operation, '/v1'), { numRuns: 200, seed: 8 }).map((parts) => parts.headers[0]!.value);
    for (const value of values) expect(value).toMatch(/^[\x21-\x7e]([\x20-\x7e]{0,18}[\x21-\x7e])?$/);
    expect(headerText('a\u00e9\n')).toBe('a\xc3\xa9 ');
  });
});
