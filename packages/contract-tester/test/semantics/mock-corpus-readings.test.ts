import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContractChecker } from '../../src/checks/response-contract.js';
import { coverageCases } from '../../src/generate/coverage.js';
import { parseExactJson } from '../../src/generate/json-text.js';
import { buildRequest } from '../../src/generate/requests.js';
import { negativeCases } from '../../src/generate/negative-requests.js';
import { wrongMethodCases } from '../../src/generate/request-variants.js';
import { NO_CREDENTIALS, positiveParts, validBodies } from '../../src/generate/requests.js';
import { parseSpec } from '../../src/spec/load.js';
import { readApiModel } from '../../src/spec/model.js';

/**
 * Constructs of public documents the tester misread against a Prism mock of them (interzoid,
 * nativeads, o2.cz, GeoDB, enode, Google's sourcerepo, fungenerators, D&D 5e), each on a small spec.
 */

const spec = (paths: object, components: object = {}) =>
  parseSpec(JSON.stringify({ openapi: '3.0.3', info: { title: 't', version: '1' }, paths, components }));

const ok = { '200': { description: 'ok' }, '400': { description: 'refused' } };

describe('a query parameter without allowEmptyValue: `name=` is the parameter left out', () => {
  const document = spec({
    '/load': {
      get: {
        operationId: 'load',
        parameters: [
          { name: 'url', in: 'query', required: true, schema: { type: 'string' } },
          { name: 'vehicleId', in: 'query', schema: { type: 'string', minLength: 1 } },
          { name: 'xgafv', in: 'query', schema: { type: 'string', enum: ['1', '2'] } },
          { name: 'note', in: 'query', allowEmptyValue: true, schema: { type: 'string', minLength: 1 } },
        ],
        responses: ok,
      },
    },
  });
  const api = readApiModel(document);
  const [load] = api.operations;
  const queryOf = (target: string) => new URLSearchParams(target.split('?')[1] ?? '');
  const empties = (target: string) => [...queryOf(target)].filter(([, value]) => value === '').map(([name]) => name);

  it('valid requests never send one empty (a required string of any length included)', () => {
    const targets = fc
      .sample(positiveParts(load!, api.basePath, NO_CREDENTIALS), { numRuns: 300, seed: 1 })
      .map((parts) => buildRequest(parts).target);
    expect(targets.every((target) => queryOf(target).has('url'))).toBe(true);
    expect(targets.flatMap(empties).filter((name) => name !== 'note')).toEqual([]);
  });

  it('coverage and negative cases never count on one as a value, but where allowEmptyValue says it is one', () => {
    const coverage = coverageCases(api, load!, NO_CREDENTIALS).map(({ parts, valid }) => ({ target: buildRequest(parts).target, valid }));
    expect(coverage.flatMap(({ target }) => empties(target)).filter((name) => name !== 'note')).toEqual([]);
    // note= is a value there, one character short of its minLength.
    expect(coverage.some(({ target, valid }) => !valid && empties(target).includes('note'))).toBe(true);
    for (const rule of ['out of bounds', 'bad enum value'] as const) {
      const cases = negativeCases(api, load!, rule, NO_CREDENTIALS);
      const targets = cases ? fc.sample(cases, { numRuns: 200, seed: 2 }).map(({ request }) => request.target) : [];
      expect(
        targets.flatMap(empties).filter((name) => name !== 'note'),
        rule,
      ).toEqual([]);
    }
  });
});

describe('numbers out of bounds', () => {
  const withFormat = (format: string) => {
    const api = readApiModel(
      spec({
        '/insults': {
          get: { operationId: 'insults', parameters: [{ name: 'limit', in: 'query', schema: { type: 'integer', format } }], responses: ok },
        },
      }),
    );
    return negativeCases(api, api.operations[0]!, 'out of bounds', NO_CREDENTIALS);
  };

  it('a format the tester does not know (`format: integer`) bounds nothing; int32 does', () => {
    expect(withFormat('integer')).toBeUndefined();
    const cases = withFormat('int32');
    expect(cases).toBeDefined();
    expect(fc.sample(cases!, { numRuns: 20, seed: 1 }).every(({ why }) => /out of bounds/.test(why))).toBe(true);
  });
});

describe('a malformed JSON body', () => {
  it('is never JSON, even where the valid body is `{}` (no quotes to change) or a number (cut short, still one)', () => {
    for (const schema of [
      { type: 'object', additionalProperties: false },
      { type: 'integer', minimum: 10, maximum: 99 },
    ]) {
      const api = readApiModel(
        spec({
          '/sync': {
            post: {
              operationId: 'sync',
              requestBody: { required: true, content: { 'application/json': { schema } } },
              responses: ok,
            },
          },
        }),
      );
      const cases = fc.sample(negativeCases(api, api.operations[0]!, 'malformed body', NO_CREDENTIALS)!, { numRuns: 200, seed: 1 });
      const parses = cases.filter(({ request }) => {
        try {
          JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(request.body));
          return true;
        } catch {
          return false;
        }
      });
      expect(parses.map(({ why, request }) => `${why}: ${request.body!.toString('utf8')}`)).toEqual([]);
    }
  });
});

describe('methods a path lacks', () => {
  it('leave out those of another path template the same URL matches (`/v1/x:sync` is a `/v1/{name}` too)', () => {
    const name = [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }];
    const api = readApiModel(
      spec({
        '/v1/{name}': {
          get: { operationId: 'get', parameters: name, responses: ok },
          patch: { operationId: 'patch', parameters: name, responses: ok },
        },
        '/v1/{name}:sync': { post: { operationId: 'sync', parameters: name, responses: ok } },
      }),
    );
    const cases = wrongMethodCases(api, '/v1/{name}:sync', () => NO_CREDENTIALS)!;
    const methods = new Set(fc.sample(cases, { numRuns: 200, seed: 1 }).map(({ request }) => request.method));
    expect([...methods].sort()).toEqual(['DELETE', 'PUT', 'TRACE']);
  });
});

describe('a response schema no validator compiles', () => {
  it('is a warning naming where it is and the check it disables, not the end of the run', () => {
    const document = spec({
      '/monsters': {
        get: {
          operationId: 'monsters',
          responses: {
            '200': {
              description: 'ok',
              content: { 'application/json': { schema: { type: 'object', allOf: { '3': { type: 'object' } } } } },
            },
          },
        },
      },
    });
    const checker = new ContractChecker(document);
    const answer = () =>
      checker.violations({
        method: 'GET',
        url: '/monsters',
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: {},
        text: '{}',
      });
    expect(answer()).toEqual([]);
    expect(checker.warnings).toHaveLength(1);
    expect(checker.warnings[0]).toMatch(
      /^the schema at \/paths\/~1monsters\/get\/responses\/200\/content\/application~1json\/schema: .*allOf.*; response_schema_conformance does not check the answers it describes$/,
    );
  });
});

describe('a polymorphic parent used on its own (a discriminator, no oneOf: `Animal` as the body)', () => {
  const animal = (mapping?: object) => ({
    type: 'object',
    required: ['petType'],
    properties: { petType: { type: 'string' } },
    discriminator: { propertyName: 'petType', ...(mapping ? { mapping } : {}) },
  });
  const child = (extra: object) => ({
    allOf: [{ $ref: '#/components/schemas/Animal' }, { type: 'object', required: Object.keys(extra), properties: extra }],
  });
  const bodiesOf = (mapping?: object) => {
    const api = readApiModel(
      spec(
        {
          '/animals': {
            post: {
              operationId: 'addAnimal',
              requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Animal' } } } },
              responses: ok,
            },
          },
        },
        { schemas: { Animal: animal(mapping), Kitten: child({ age: { type: 'integer' } }), Puppy: child({ weight: { type: 'number' } }) } },
      ),
    );
    return fc
      .sample(validBodies(api.operations[0]!)!, { numRuns: 100, seed: 1 })
      .map((body) => (body as { value: Record<string, unknown> }).value);
  };

  it('is one of the schemas its mapping names, its discriminator naming which', () => {
    const bodies = bodiesOf({ kitten: '#/components/schemas/Kitten', puppy: 'Puppy' });
    expect(new Set(bodies.map(({ petType }) => petType))).toEqual(new Set(['kitten', 'puppy']));
    for (const body of bodies) expect(body, JSON.stringify(body)).toHaveProperty(body['petType'] === 'kitten' ? 'age' : 'weight');
  });

  it('without a mapping, one of the schemas that inherit from it, by name', () => {
    const bodies = bodiesOf();
    expect(new Set(bodies.map(({ petType }) => petType))).toEqual(new Set(['Kitten', 'Puppy']));
    for (const body of bodies) expect(body, JSON.stringify(body)).toHaveProperty(body['petType'] === 'Kitten' ? 'age' : 'weight');
  });
});

describe('an int64 in an answer', () => {
  it('may be any 64-bit integer, past 2^53 too (Azure Recovery Services: resourceId 8726350008099341000)', () => {
    const checker = new ContractChecker(
      spec({
        '/vaults': {
          get: {
            operationId: 'vault',
            responses: {
              '200': {
                description: 'ok',
                content: {
                  'application/json': {
                    schema: { type: 'object', properties: { resourceId: { type: 'integer', format: 'int64' } } },
                  },
                },
              },
            },
          },
        },
      }),
    );
    const answer = (text: string) =>
      checker.violations({
        method: 'GET',
        url: '/vaults',
        status: 200,
        headers: { 'content-type': 'application/json' },
        body: parseExactJson(text),
        text,
      });
    expect(answer('{"resourceId":8726350008099341000}')).toEqual([]);
    expect(answer('{"resourceId":9007199254740992}')).toEqual([]);
    expect(answer('{"resourceId":9223372036854775807}')).toEqual([]);
    expect(answer('{"resourceId":9223372036854775808}').join('\n')).toMatch(/int64/);
    expect(answer('{"resourceId":-9223372036854775808}')).toEqual([]);
    expect(answer('{"resourceId":1e20}').join('\n')).toMatch(/int64/);
  });
});
