import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MISSING_HEADER, RULES } from '../../src/generate/invalid-values.js';
import {
  BODY_RULES,
  declaredPropertyNames,
  negativeCases,
  type NegativeCase,
  type NegativeRule,
} from '../../src/generate/negative-requests.js';
import { NO_CREDENTIALS } from '../../src/generate/requests.js';
import { isValid } from '../../src/generate/schema-validator.js';
import { readApiModel } from '../../src/spec/model.js';
import { parseSpec } from '../../src/spec/load.js';
import { petStoreDocument } from '../support/pet-store.js';
import { minimalSpec } from '../support/semantics/minimal.js';
import { cardsSpec } from '../support/semantics/cards.js';
import { paymentsSpec } from '../support/semantics/payments.js';

const api = readApiModel(petStoreDocument());
const operation = (id: string) => api.operations.find((candidate) => candidate.id === id)!;
const newPet = operation('createPet').body!.media[0]!.schema;
const newPetFields = Object.keys(newPet.properties as object);

function sample(id: string, rule: NegativeRule, numRuns = 150): NegativeCase[] {
  const cases = negativeCases(api, operation(id), rule, NO_CREDENTIALS);
  if (!cases) throw new Error(`${rule} does not apply to ${id}`);
  return fc.sample(cases, { numRuns, seed: 9 });
}

function bodyOf({ request }: NegativeCase): unknown {
  return JSON.parse(request.body!.toString('utf8'));
}

describe('negative cases', () => {
  it('leave alone a parameter the server ignores when it cannot use it (x-ignored-if-invalid)', () => {
    // listStoreOrders with only its X-Request-Id and traceparent: nothing of it can be broken.
    const onlyIgnored = {
      ...operation('listStoreOrders'),
      parameters: operation('listStoreOrders').parameters.filter((p) => p.ignoredIfInvalid),
    };
    expect([...RULES, ...BODY_RULES].filter((rule) => negativeCases(api, onlyIgnored, rule, NO_CREDENTIALS) !== undefined)).toEqual([]);
    const asEveryOther = { ...onlyIgnored, parameters: onlyIgnored.parameters.map((p) => ({ ...p, ignoredIfInvalid: false })) };
    expect(negativeCases(api, asEveryOther, 'badly encoded text', NO_CREDENTIALS)).toBeDefined();
  });

  it('exist for each rule an operation has something to break', () => {
    const rules = (id: string) =>
      [...RULES, ...BODY_RULES].filter((rule) => negativeCases(api, operation(id), rule, NO_CREDENTIALS) !== undefined);
    expect(rules('listPets')).toEqual([
      'wrong type',
      'out of bounds',
      'bad enum value',
      'bad pattern',
      'non-canonical number',
      'badly encoded text',
    ]);
    expect(rules('createPet')).toEqual([...RULES, ...BODY_RULES]);
    expect(rules('getPet')).toEqual(['wrong type', 'out of bounds', 'bad format', 'non-canonical number']);
    expect(rules('listStoreOrders')).toEqual(rules('listPets'));
  });

  it('break the body in one place: the rest of it stays valid', () => {
    for (const testCase of sample('createPet', 'missing required')) {
      if (!testCase.request.body) {
        expect(testCase.why).toBe('the required body is missing');
        continue;
      }
      const body = bodyOf(testCase) as Record<string, unknown>;
      expect(isValid(newPet, body)).toBe(false);
      expect((newPet.required as string[]).filter((name) => !(name in body))).toHaveLength(1);
      expect(isValid(newPet, { name: 'x', categoryId: 1, ...body })).toBe(true);
    }
  });

  it('add a property the schema does not have, often one of another schema (id)', () => {
    const cases = sample('createPet', 'extra property');
    for (const testCase of cases) {
      const body = bodyOf(testCase) as Record<string, unknown>;
      const extra = Object.keys(body).filter((name) => !newPetFields.includes(name));
      expect(extra).toHaveLength(1);
    }
    expect(cases.some((testCase) => 'id' in (bodyOf(testCase) as object))).toBe(true);
    expect(declaredPropertyNames(api)).toEqual(expect.arrayContaining(['id', 'name', 'categoryId', 'status', 'code', 'message']));
  });

  it('break a parameter in the path or the query, written as a client would send it', () => {
    const targets = sample('getPet', 'non-canonical number', 300).map(({ request }) => request.target);
    for (const spelling of ['%2B', '0x', '%20', '.0', 'e0', 'Infinity'])
      expect(
        targets.some((target) => target.includes(spelling)),
        spelling,
      ).toBe(true);
    expect(targets.every((target) => target.startsWith('/v1/pets/'))).toBe(true);
    const queries = sample('listPets', 'badly encoded text', 300).map(({ request }) => request.target);
    expect(queries.every((target) => /[?&]cursor=/.test(target))).toBe(true);
    for (const bytes of ['%FF', '%ED%A0%80', '%00'])
      expect(
        queries.some((target) => target.includes(bytes)),
        bytes,
      ).toBe(true);
  });

  it('take numbers far out of bounds: many digits, 1e400', () => {
    const targets = sample('listPets', 'out of bounds', 300).map(({ request }) => decodeURIComponent(request.target));
    expect(targets.some((target) => /limit=\d{300,}/.test(target))).toBe(true);
    expect(targets.some((target) => target.includes('limit=1e400'))).toBe(true);
    expect(targets.some((target) => target.includes('limit=0'))).toBe(true);
  });

  it('name the rule they break, for the registry to tell the check their acceptance fails', () => {
    expect(sample('getPet', 'wrong type', 5).every(({ rule }) => rule === 'wrong type')).toBe(true);
    expect(sample('createPet', 'malformed body', 5).every(({ rule }) => rule === 'malformed body')).toBe(true);
  });

  it('send bodies that are not JSON, with the JSON media type', () => {
    const bodies = sample('createPet', 'malformed body', 300);
    expect(bodies.every(({ why }) => why.startsWith('the body is not JSON'))).toBe(true);
    for (const { request } of bodies) {
      expect(request.headers.find(({ name }) => name === 'Content-Type')?.value).toMatch(/^application\/json/);
      expect(() => JSON.parse(request.body!.toString('utf8')) as unknown).toThrow();
    }
  });

  it('send a valid body under another media type, or none', () => {
    const cases = sample('createPet', 'unsupported media type');
    for (const { request } of cases) {
      expect(isValid(newPet, JSON.parse(request.body!.toString('utf8')))).toBe(true);
      expect(request.headers.find(({ name }) => name === 'Content-Type')?.value ?? 'none').not.toBe('application/json');
    }
    expect(cases.some(({ request }) => !request.headers.some(({ name }) => name === 'Content-Type'))).toBe(true);
  });

  it('make a valid body too large with white space alone', () => {
    for (const { request } of sample('createPet', 'body too large', 20)) {
      expect(request.body!.length).toBeGreaterThan(16384);
      expect(isValid(newPet, JSON.parse(request.body!.toString('utf8')))).toBe(true);
    }
  });
});

describe('negative cases of header parameters', () => {
  // A header parameter such as an Idempotency-Key, in a spec of its own: nothing about it is in the tester.
  const keyed = readApiModel({
    openapi: '3.1.0',
    info: { title: 'keyed', version: '1.0.0' },
    servers: [{ url: '/v1' }],
    paths: {
      '/orders': {
        post: {
          operationId: 'createOrder',
          parameters: [
            {
              name: 'Idempotency-Key',
              in: 'header',
              required: true,
              schema: { type: 'string', minLength: 8, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' },
            },
          ],
          responses: { '201': { description: 'created' } },
        },
      },
    },
    components: { schemas: {} },
  });
  const createOrder = keyed.operations[0]!;
  const header = (testCase: NegativeCase) => testCase.request.headers.find(({ name }) => name === 'Idempotency-Key')?.value;
  const sendable = /^[\t\x20-\x7e\x80-\xff]*$/;

  it('leave it out, make it too short or long, break its pattern, or put bytes that are not UTF-8 in it', () => {
    const sampleOf = (rule: NegativeRule) => fc.sample(negativeCases(keyed, createOrder, rule, NO_CREDENTIALS)!, { numRuns: 100, seed: 3 });
    expect(sampleOf('missing required').every((testCase) => header(testCase) === undefined && testCase.rule === MISSING_HEADER)).toBe(true);
    for (const rule of ['out of bounds', 'bad pattern', 'badly encoded text'] as const) {
      const values = sampleOf(rule).map(header);
      expect(
        values.every((value) => value !== undefined && sendable.test(value)),
        rule,
      ).toBe(true);
      expect(
        values.some((value) => value !== undefined && !/^[A-Za-z0-9_-]{8,64}$/.test(value)),
        rule,
      ).toBe(true);
    }
    expect(sampleOf('badly encoded text').every((testCase) => /[\x80-\xff]/.test(header(testCase)!))).toBe(true);
  });

  it('are still broken after the receiver trims the white space around them', () => {
    // Control characters go out as spaces, so a broken "\x01A" would arrive as a valid "A".
    const idempotencyKey = operation('createPet').parameters.find(({ name }) => name === 'Idempotency-Key')!.schema;
    const cases = fc.sample(negativeCases(api, operation('createPet'), 'bad pattern', NO_CREDENTIALS)!, {
      numRuns: 3000,
      seed: 2141597309,
    });
    const arrived = cases
      .filter(({ why }) => why.startsWith('Idempotency-Key'))
      .map((testCase) => header(testCase)!.replace(/^[ \t]+|[ \t]+$/g, ''));
    expect(arrived.length).toBeGreaterThan(100);
    expect(arrived.filter((value) => isValid(idempotencyKey, value))).toEqual([]);
  });
});

describe('negative cases of a body with readOnly and writeOnly properties', () => {
  // A server may ignore a client's value of a readOnly property as well as refuse it: no case breaks one.
  for (const version of ['3.0.3', '3.1.0'] as const) {
    it(`never break a readOnly property, and never leave one out as if it were required (${version})`, () => {
      const cards = readApiModel(parseSpec(JSON.stringify(cardsSpec(version))));
      const createCard = cards.operations[0]!;
      const whys = RULES.flatMap((rule) => {
        const cases = negativeCases(cards, createCard, rule, NO_CREDENTIALS);
        return cases ? fc.sample(cases, { numRuns: 60, seed: 4 }).map(({ why }) => why) : [];
      });
      expect(whys.length).toBeGreaterThan(100);
      expect(whys.filter((why) => /body\.id\b/.test(why))).toEqual([]);
      expect(whys).toContain('body.cvc is missing');
    });
  }
});

describe('negative cases inside a oneOf', () => {
  const payments = readApiModel(parseSpec(JSON.stringify(paymentsSpec())));
  const pay = payments.operations[0]!;
  const schema = pay.body!.media[0]!.schema;
  const cases = (rule: NegativeRule) => fc.sample(negativeCases(payments, pay, rule, NO_CREDENTIALS)!, { numRuns: 200, seed: 6 });

  it("break a branch's own rules (its enum, its pattern) in a value of that branch, refused by the whole schema", () => {
    const enums = cases('bad enum value');
    const brands = enums.filter(({ why }) => why.startsWith('body.brand'));
    expect(brands.length).toBeGreaterThan(20);
    for (const testCase of brands) expect(bodyOf(testCase)).toMatchObject({ kind: 'card' });
    const patterns = cases('bad pattern').filter(({ why }) => why.startsWith('body.iban'));
    expect(patterns.length).toBeGreaterThan(20);
    for (const testCase of [...enums, ...patterns]) expect(isValid(schema, bodyOf(testCase))).toBe(false);
  });

  it('add members no branch has (unevaluatedProperties: false), and leave out what a branch requires', () => {
    const extra = cases('extra property');
    expect(extra.length).toBeGreaterThan(0);
    for (const testCase of extra) expect(isValid(schema, bodyOf(testCase))).toBe(false);
    expect(new Set(cases('missing required').map(({ why }) => why))).toEqual(
      new Set(['body.kind is missing', 'body.brand is missing', 'body.iban is missing', 'the required body is missing']),
    );
  });
});

describe('an empty path parameter', () => {
  it('is never sent as a broken value: /clients/ names another path, which another operation may serve', () => {
    const api = readApiModel(
      minimalSpec({
        '/clients': { get: { operationId: 'clients', responses: { '200': { description: 'ok' } } } },
        '/clients/{language}': {
          get: {
            operationId: 'client',
            parameters: [{ name: 'language', in: 'path', required: true, schema: { type: 'string', enum: ['java', 'python'] } }],
            responses: { '200': { description: 'ok' } },
          },
        },
      }),
    );
    const client = api.operations.find(({ id }) => id === 'client')!;
    const targets = fc
      .sample(negativeCases(api, client, 'bad enum value', NO_CREDENTIALS)!, { numRuns: 300, seed: 5 })
      .map(({ request }) => request.target);
    expect(targets.length).toBeGreaterThan(0);
    expect(targets.filter((target) => target === '/clients/')).toEqual([]);
  });
});
