import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeadlineReached, setGenerationDeadline } from '../../src/deadline.js';
import { ContractChecker } from '../../src/checks/response-contract.js';
import { parseSpec } from '../../src/spec/load.js';
import { refInsideIdSpec, schemaIdsSpec, SHARED_ID } from '../support/semantics/schema-ids.js';
import { cardsSpec } from '../support/semantics/cards.js';
import { DOCUMENT_URI } from '../../src/checks/id-bases.js';
import { petStoreDocument } from '../support/pet-store.js';
import {
  boardChecker,
  DEPRECATION,
  errorBody,
  ETAG,
  HTML_TYPE,
  JSON_TYPE,
  observed,
  PET,
  petStoreChecker,
} from '../support/observed-response.js';

const checker = petStoreChecker();
const specOnly = new ContractChecker(petStoreDocument());

describe("the contract check of a response, with the pet store's house rules", () => {
  it('passes responses that keep the contract', () => {
    expect(checker.violations(observed({ body: [PET] }))).toEqual([]);
    expect(checker.violations(observed({ method: 'POST', status: 201, body: PET, headers: { location: '/v1/pets/1', ...ETAG } }))).toEqual(
      [],
    );
    expect(
      checker.violations(observed({ url: '/v1/pets/9', status: 404, body: errorBody(404, 'pet_not_found'), headers: DEPRECATION })),
    ).toEqual([]);
    expect(checker.violations(observed({ url: '/healthz', body: { status: 'ok' } }))).toEqual([]);
  });

  it('throws every violation at once from check()', () => {
    expect(() => checker.check(observed({ method: 'POST', status: 201, body: {} }))).toThrow(
      /required header Location[\s\S]*must have required property 'id'/,
    );
  });

  it('names the check of each finding', () => {
    const findings = checker.findings(
      observed({ status: 400, body: errorBody(404, 'validation_failed'), headers: { 'cache-control': undefined } }),
    );
    expect(findings.map(({ check }) => check)).toEqual(['required_response_headers', 'error_schema_conformance']);
  });
});

describe('the contract check of a response, by the spec alone', () => {
  const board = boardChecker();

  it('asks nothing the spec does not: no house headers, any error body the operation documents', () => {
    expect(specOnly.violations(observed({ body: [PET], headers: { 'cache-control': undefined, 'x-powered-by': 'Express' } }))).toEqual([]);
    expect(specOnly.violations(observed({ url: '/v1/pets/', body: [] }))).toEqual([]);
    expect(
      board.violations(observed({ url: '/v1/games/1', status: 404, body: undefined, text: '<p>No such game</p>', headers: HTML_TYPE })),
    ).toEqual([]);
  });
});

describe('the signature of a schema finding', () => {
  const cards = new ContractChecker(parseSpec(JSON.stringify(cardsSpec('3.1.0'))));
  const signatures = (body: unknown) =>
    cards
      .findings(observed({ method: 'POST', url: '/api/cards', status: 201, body, headers: { 'content-type': 'application/json' } }))
      .map(({ check, signature }) => `${check}: ${signature}`);

  it('tells apart what was wrong, not the values that showed it', () => {
    const id = '123e4567-e89b-12d3-a456-426614174000';
    const missingId = signatures({ number: '4111111111111111' });
    expect(signatures({ number: '5500000000000004' })).toEqual(missingId);
    const badNumber = signatures({ id, number: '41' });
    expect(signatures({ id, number: 'x' })).toEqual(badNumber);
    expect(badNumber).not.toEqual(missingId);
    expect(badNumber[0]).toMatch(
      /^response_schema_conformance: \/paths\/~1cards\/post\/responses\/201\/content\/application~1json\/schema: /,
    );
  });
});

describe('a document with `$id`s', () => {
  it('checks a document whose examples share an `$id` (data, not a schema)', () => {
    const checker = new ContractChecker(parseSpec(JSON.stringify(schemaIdsSpec('examples'))), { basePath: '/api' });
    const ok = observed({ url: '/api/mapping', body: { $id: SHARED_ID, type: 'object' } });
    expect(checker.violations(ok)).toEqual([]);
    const wrong = observed({ url: '/api/mapping', body: { type: 7 } });
    expect(checker.findings(wrong).map(({ check }) => check)).toEqual(['response_schema_conformance']);
  });

  it('reads two schemas of one `$id` without their `$id`s, with a warning naming it', () => {
    const checker = new ContractChecker(parseSpec(JSON.stringify(schemaIdsSpec('schemas'))), { basePath: '/api' });
    expect(checker.warnings).toEqual([
      `two of its schemas have the $id "${SHARED_ID}", which must name one schema (JSON Schema 2020-12 §8.2.1): give each its own; the schemas are read without their $ids`,
    ]);
    expect(checker.violations(observed({ url: '/api/mapping', body: { type: 'object' } }))).toEqual([]);
    expect(checker.findings(observed({ url: '/api/mapping', body: { type: 7 } })).map(({ check }) => check)).toEqual([
      'response_schema_conformance',
    ]);
  });

  it('warns of a schema it cannot compile, naming it and the check, and checks everything else', () => {
    const checker = new ContractChecker(parseSpec(JSON.stringify(refInsideIdSpec({ $ref: '#/components/schemas/Nowhere' }))), {
      basePath: '',
    });
    expect(checker.violations(observed({ url: '/pets', body: { name: 'Rex' } }))).toEqual([]);
    expect(checker.violations(observed({ url: '/pets', body: { name: 'Rex' } }))).toEqual([]);
    expect(checker.warnings).toHaveLength(1);
    expect(checker.warnings[0]).toMatch(
      /^the schema at \/paths\/~1pets\/get\/responses\/200\/content\/application~1json\/schema: .*Nowhere.*; response_schema_conformance does not check the answers it describes$/,
    );
    expect(checker.violations(observed({ url: '/tags', body: {} })).join('\n')).toMatch(/label/);
    expect(checker.violations(observed({ url: '/pets', status: 500 }))).not.toEqual([]);
  });
});

describe('the compile of a response schema, within the budget', () => {
  afterEach(() => {
    setGenerationDeadline(undefined);
    vi.restoreAllMocks();
  });

  // An answer whose schema reaches many others by $ref, as an AWS finding reaches thousands.
  const PARTS = 30;
  const schemas: Record<string, unknown> = {
    Leaf: { type: 'object', required: ['n'], properties: { n: { type: 'integer' } } },
    Finding: {
      type: 'object',
      properties: Object.fromEntries(
        Array.from({ length: PARTS }, (_, index) => [`p${index}`, { $ref: `#/components/schemas/Part${index}` }]),
      ),
    },
  };
  for (let index = 0; index < PARTS; index++)
    schemas[`Part${index}`] = { type: 'object', properties: { leaf: { $ref: '#/components/schemas/Leaf' } } };
  const answer = (ref: string) => ({ '200': { description: 'ok', content: { 'application/json': { schema: { $ref: ref } } } } });
  const spec = {
    openapi: '3.1.0',
    info: { title: 'findings', version: '1' },
    paths: {
      '/findings': { get: { responses: answer('#/components/schemas/Finding') } },
      '/findings/{id}': { get: { responses: answer('#/components/schemas/Finding') } },
    },
    components: { schemas },
  };
  const response = (url: string, body: unknown) => ({
    method: 'GET',
    url,
    status: 200,
    headers: JSON_TYPE,
    body,
    text: JSON.stringify(body),
  });

  it('gives Ajv no whole document to walk in one call: the parts a schema needs, as it needs them', () => {
    const addSchema = vi.spyOn(Ajv2020.prototype, 'addSchema');
    const checker = new ContractChecker(parseSpec(JSON.stringify(spec)));
    expect(addSchema.mock.calls.filter(([, key]) => key === DOCUMENT_URI).map(([schema]) => schema)).toEqual([{}]);
    expect(checker.findings(response('/findings', { p3: { leaf: { n: 1 } } }))).toEqual([]);
    expect(checker.findings(response('/findings', { p3: { leaf: {} } })).map(({ check }) => check)).toEqual([
      'response_schema_conformance',
    ]);
  });

  it('asks the deadline before each schema it reaches, compiles each once, and can be interrupted and taken up again', () => {
    const checker = new ContractChecker(parseSpec(JSON.stringify(spec)));
    let clock = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 1));
    setGenerationDeadline(clock + 5);
    expect(() => checker.findings(response('/findings', { p0: { leaf: { n: 1 } } }))).toThrow(DeadlineReached);

    setGenerationDeadline(Number.MAX_SAFE_INTEGER);
    const before = clock;
    expect(checker.findings(response('/findings', { p0: { leaf: { n: 1 } } }))).toEqual([]);
    // Each of the schemas not compiled before the interruption, on its own: Finding, Leaf and the parts.
    expect(clock - before).toBeGreaterThanOrEqual(PARTS + 2 - 5);
    const found = checker.findings(response('/findings/1', { p7: { leaf: { n: 'x' } } }));
    expect(found.map(({ check }) => check)).toEqual(['response_schema_conformance']);
    // The other operation's answer reaches the same schemas: none is compiled again.
    expect(clock - before).toBeLessThanOrEqual(PARTS + 2 - 5 + 2);
  });
});
