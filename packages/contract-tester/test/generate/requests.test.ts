import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  buildRequest,
  encodeParameter,
  headerText,
  parameterText,
  percentEncode,
  positiveParts,
  setParameter,
  validBodies,
  type RequestCredentials,
  type RequestParts,
} from '../../src/generate/requests.js';
import { isValid } from '../../src/generate/schema-validator.js';
import { readApiModel, type OperationModel, type ParameterModel } from '../../src/spec/model.js';
import { petStoreDocument } from '../support/pet-store.js';

const api = readApiModel(petStoreDocument());
const operation = (id: string) => api.operations.find((candidate) => candidate.id === id)!;
/** The pet statuses, as the spec gives them. */
const STATUSES = petStoreDocument().components.schemas['PetStatus']!['enum'] as string[];
const key: RequestCredentials = {
  kind: 'valid',
  credentials: [{ scheme: 'bearerAuth', place: 'header', name: 'Authorization', prefix: 'Bearer ', variable: 'CONTRACT_TEST_API_KEY' }],
};
const sample = (id: string, linkSupplied = new Set<string>()) =>
  fc.sample(positiveParts(operation(id), '/v1', key, { linkSupplied }), { numRuns: 200, seed: 5 });

describe('valid requests', () => {
  it('fill the path, carry the credentials given, and a valid JSON body', () => {
    for (const parts of sample('createPet')) {
      const request = buildRequest(parts);
      expect(request).toMatchObject({ method: 'POST', target: '/v1/pets', credentials: key });
      expect(request.headers.find(({ name }) => name === 'Content-Type')?.value).toMatch(/^application\/json(; charset=utf-8)?$/);
      expect(isValid(operation('createPet').body!.media[0]!.schema, JSON.parse(request.body!.toString('utf8')))).toBe(true);
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
      if (query.has('status')) expect(STATUSES).toContain(query.get('status'));
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
    const header: ParameterModel = { name: 'X-Trace', in: 'header', required: false, schema: {}, examples: [], explode: false };
    const cookie: ParameterModel = { name: 'session', in: 'cookie', required: false, schema: {}, examples: [], explode: true };
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
    expect(parameterText(null)).toBe('');
  });

  it('write a list with commas, or exploded into one pair per item in a form query', () => {
    const list = (where: ParameterModel['in'], explode: boolean): ParameterModel => ({
      name: 'tags',
      in: where,
      required: false,
      schema: { type: 'array' },
      examples: [],
      explode,
    });
    expect(encodeParameter(list('query', true), ['a b', 'c'])).toEqual(['a%20b', 'c']);
    expect(encodeParameter(list('query', false), ['a', 'c'])).toBe('a,c');
    expect(encodeParameter(list('header', false), ['a', 'c'])).toBe('a,c');
    expect(buildRequest(setParameter(setParameter(base, petId, '7'), list('query', true), ['x', 'y'])).target).toBe(
      '/v1/pets/7?tags=x&tags=y',
    );
  });
});

describe('valid bodies', () => {
  it('are made in every media type the tester makes, JSON most often', () => {
    const media = (mediaType: string, schema: Record<string, unknown>) => ({
      mediaType,
      kind: mediaType.includes('json') ? ('json' as const) : ('form' as const),
      schema,
      examples: [],
    });
    const schema = { type: 'object', required: ['a'], properties: { a: { type: 'integer', minimum: 1 } } };
    const operation = {
      ...api.operations[0]!,
      body: { required: true, media: [media('application/json', schema), media('application/x-www-form-urlencoded', schema)] },
    };
    const types = fc.sample(validBodies(operation)!, { numRuns: 200, seed: 4 }).map(({ mediaType }) => mediaType!.split(';')[0]);
    expect(types.filter((type) => type === 'application/json').length).toBeGreaterThan(100);
    expect(types).toContain('application/x-www-form-urlencoded');
    expect(
      validBodies({ ...operation, body: { required: true, media: [{ mediaType: 'application/xml', schema, examples: [] }] } }),
    ).toBeUndefined();
  });
});

describe('valid header parameters', () => {
  it('are printable ASCII without white space at the ends, within the schema', () => {
    const trace: ParameterModel = {
      name: 'X-Trace',
      in: 'header',
      required: true,
      schema: { type: 'string', minLength: 1, maxLength: 20 },
      examples: [],
      explode: false,
    };
    const operation: OperationModel = {
      id: 'x',
      method: 'get',
      path: '/x',
      pointer: '/paths/~1x/get',
      tags: [],
      deprecated: false,
      parameters: [trace],
      security: { alternatives: [], optional: false },
      responses: [],
    };
    const values = fc.sample(positiveParts(operation, '/v1', key), { numRuns: 200, seed: 8 }).map((parts) => parts.headers[0]!.value);
    for (const value of values) expect(value).toMatch(/^[\x21-\x7e]([\x20-\x7e]{0,18}[\x21-\x7e])?$/);
    expect(headerText('a\u00e9\n')).toBe('a\xc3\xa9 ');
  });
});
