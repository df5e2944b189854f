import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { boundaryValues, coverageCases } from '../../src/generate/coverage.js';
import { negativeCases } from '../../src/generate/negative-requests.js';
import { MISSING_HEADER } from '../../src/generate/invalid-values.js';
import { buildRequest, NO_CREDENTIALS } from '../../src/generate/requests.js';
import { isValid } from '../../src/generate/schema-validator.js';
import { parseSpec } from '../../src/spec/load.js';
import { readApiModel } from '../../src/spec/model.js';
import { BOARD_SPEC } from '../support/test-bed/board.js';
import { GALLERY_SPEC } from '../support/test-bed/gallery.js';
import { minimalSpec } from '../support/semantics/minimal.js';
import { paymentsSpec } from '../support/semantics/payments.js';

const gallery = readApiModel(parseSpec(readFileSync(GALLERY_SPEC, 'utf8')));
const board = readApiModel(parseSpec(readFileSync(BOARD_SPEC, 'utf8')));
const operation = (api: typeof gallery, id: string) => api.operations.find((candidate) => candidate.id === id)!;

describe('boundary values', () => {
  it('each bound and one past it, each enum value and one it lacks, true and false', () => {
    expect(boundaryValues({ type: 'integer', minimum: 1, maximum: 3 }).map(({ value }) => value)).toEqual([1, 0, 3, 4]);
    expect(boundaryValues({ type: 'integer', exclusiveMinimum: 0 }).map(({ value }) => value)).toEqual([1, 0]);
    expect(boundaryValues({ type: 'string', minLength: 2, maxLength: 4 }).map(({ value }) => value)).toEqual(['aa', 'a', 'aaaa', 'aaaaa']);
    expect(boundaryValues({ enum: ['.', 'X'] }).map(({ value }) => value)).toEqual(['.', 'X', '.-not-listed']);
    expect(boundaryValues({ type: 'boolean' }).map(({ value }) => value)).toEqual([true, false]);
    expect(
      boundaryValues({ type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: 2 }).map(
        ({ value }) => (value as unknown[]).length,
      ),
    ).toEqual([1, 0, 2, 3]);
  });

  it('keep to a pattern at the bounds where generated text can', () => {
    const schema = { type: 'string', pattern: '^[a-f]+$', minLength: 3, maxLength: 5 };
    const [shortest, , longest] = boundaryValues(schema).map(({ value }) => value as string);
    expect(isValid(schema, shortest) && isValid(schema, longest)).toBe(true);
    expect([shortest!.length, longest!.length]).toEqual([3, 5]);
  });
});

describe('the coverage phase', () => {
  it('changes one thing at a time: each bound of each parameter, each optional one given', () => {
    const cases = coverageCases(gallery, operation(gallery, 'listOpeningHours'), NO_CREDENTIALS);
    expect(cases.map(({ parts, valid }) => `${buildRequest(parts).target} ${valid}`)).toEqual([
      '/api/opening-hours?from=2030-01-01 true',
      '/api/opening-hours?days=1 true',
      '/api/opening-hours?days=0 false',
      '/api/opening-hours?days=31 true',
      '/api/opening-hours?days=32 false',
      '/api/opening-hours?days=7 true',
    ]);
  });

  it('does the same to each property of the body: bounds, left out, given', () => {
    const cases = coverageCases(gallery, operation(gallery, 'updateExhibition'), NO_CREDENTIALS);
    const whys = cases.map(({ why, valid }) => `${why}: ${valid}`);
    expect(whys).toContain('body.price: the maximum, 1000: true');
    expect(whys).toContain('body.price: one above the maximum, 1001: false');
    expect(whys).toContain('body.title: one character too short, 0: false');
    expect(whys).toContain('body.room left out: true');
    for (const item of cases)
      expect(isValid(operation(gallery, 'updateExhibition').body!.media[0]!.schema, item.bodyValue)).toBe(item.valid);
  });

  it('leaves a required parameter out (a header one is missing_required_header), and marks path parameters it tries', () => {
    const square = coverageCases(board, operation(board, 'getSquare'), NO_CREDENTIALS);
    expect(square.filter(({ pathParameter }) => pathParameter === 'row').map(({ parts }) => parts.pathParameters['row'])).toEqual([
      '1',
      '0',
      '3',
      '4',
    ]);
    const header = {
      name: 'X-Tenant',
      in: 'header' as const,
      required: true,
      schema: { type: 'string', minLength: 1 },
      examples: ['t1'],
      explode: false,
    };
    const withHeader = { ...operation(gallery, 'listExhibitions'), parameters: [header] };
    const left = coverageCases(gallery, withHeader, NO_CREDENTIALS).find(({ why }) => why.includes('left out'));
    expect(left).toMatchObject({ valid: false, rule: MISSING_HEADER });
  });
});

describe('the coverage phase inside a oneOf', () => {
  // A value the server must check inside one branch (an invoice's IBAN, a card's brand) is tried in a
  // body whose choice is that branch: otherwise the other branch's body never reads it.
  const payments = readApiModel(parseSpec(JSON.stringify(paymentsSpec())));
  const cases = coverageCases(payments, payments.operations[0]!, NO_CREDENTIALS);
  const body = (value: unknown) => value as Record<string, unknown>;

  it('tries each enum value of a branch, and one it lacks, in a body of that branch', () => {
    const brands = cases.filter(({ why }) => why.startsWith('body.brand') && !why.includes('left out'));
    expect(brands.map(({ bodyValue, valid }) => [body(bodyValue)['brand'], valid])).toEqual([
      ['visa', true],
      ['mastercard', true],
      ['visa-not-listed', false],
    ]);
    for (const { bodyValue } of brands) expect(body(bodyValue)['kind']).toBe('card');
    expect(brands[2]!.why).toBe('body.brand (in branch 1 of body): a value the enum does not list');
  });

  it('leaves out each required member of each branch, from a body of that branch', () => {
    const left = cases.filter(({ why }) => why.includes('left out (it is required)'));
    expect(left.map(({ why }) => why.split(' (in')[0])).toEqual(['body.kind', 'body.brand', 'body.kind', 'body.iban']);
    expect(left.every(({ valid }) => !valid)).toBe(true);
    expect(left.filter(({ bodyValue }) => 'iban' in body(bodyValue) || body(bodyValue)['kind'] === 'invoice')).toHaveLength(2);
  });

  it('adds a member no closed object declares (unevaluatedProperties: false beside the oneOf): the whole body, and each branch', () => {
    const undeclared = cases.filter(({ why }) => why.endsWith('a member it does not declare'));
    expect(undeclared.map(({ why, valid }) => [why, valid])).toEqual([
      // The base body is a card already: its branch's case is the whole body's, sent once.
      ['body: unexpected, a member it does not declare', false],
      ['branch 2 of body: unexpected, a member it does not declare', false],
    ]);
    expect(body(undeclared[1]!.bodyValue)).toMatchObject({ kind: 'invoice', unexpected: 'unexpected' });
  });
});

describe('a required parameter or property with a default (the value the server assumes without one)', () => {
  const api = readApiModel(
    minimalSpec(
      {
        '/plans': {
          post: {
            operationId: 'plan',
            parameters: [
              { name: 'api-version', in: 'query', required: true, schema: { type: 'string', default: '2019-01-01' } },
              { name: 'region', in: 'query', required: true, schema: { type: 'string' } },
            ],
            requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/Plan' } } } },
            responses: { '200': { description: 'ok' } },
          },
        },
      },
      {
        schemas: {
          Plan: {
            type: 'object',
            required: ['name', 'size'],
            properties: { name: { type: 'string' }, size: { type: 'integer', default: 1 } },
          },
        },
      },
    ),
  );
  const operation = api.operations[0]!;

  it('is not left out as a refusal the server owes; one without a default still is', () => {
    const left = coverageCases(api, operation, NO_CREDENTIALS)
      .filter(({ why }) => why.includes('left out (it is required)'))
      .map(({ why }) => why);
    expect(left.some((why) => why.includes('region'))).toBe(true);
    expect(left.some((why) => why.includes('body.name'))).toBe(true);
    expect(left.filter((why) => why.includes('api-version') || why.includes('body.size'))).toEqual([]);
    const missing = fc.sample(negativeCases(api, operation, 'missing required', NO_CREDENTIALS)!, { numRuns: 100, seed: 2 });
    const whys = new Set(missing.map(({ why }) => why));
    expect([...whys].some((why) => why.includes('region'))).toBe(true);
    expect([...whys].filter((why) => why.includes('api-version') || why.includes('size'))).toEqual([]);
  });
});
