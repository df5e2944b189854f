import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeadlineReached, setGenerationDeadline } from '../../src/deadline.js';
import type { ObservedResponse } from '../../src/checks/response-check.js';
import { ContractChecker } from '../../src/checks/response-contract.js';
import { coerceHeader } from '../../src/checks/response-headers-conformance.js';
import { parseSpec } from '../../src/spec/load.js';
import { PET_STORE_PROFILE, petStoreDocument } from '../support/pet-store.js';
import { cardsSpec } from '../support/semantics/cards.js';
import { schemaIdsSpec, SHARED_ID } from '../support/semantics/schema-ids.js';
import { DOCUMENT_URI } from '../../src/checks/id-bases.js';
import { BOARD_SPEC } from '../support/test-bed/board.js';

const checker = new ContractChecker(petStoreDocument(), { profile: PET_STORE_PROFILE });
const specOnly = new ContractChecker(petStoreDocument());
const HYGIENE = { 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', 'x-request-id': 'r-1' };
const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' };
const pet = { id: 1, name: 'Rex', categoryId: 3 };
const ETAG = { etag: '"1-1"' };
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

describe("the contract check of a response, with the pet store's house rules", () => {
  it('passes responses that keep the contract', () => {
    expect(checker.violations(observed({ body: [pet] }))).toEqual([]);
    expect(checker.violations(observed({ method: 'POST', status: 201, body: pet, headers: { location: '/v1/pets/1', ...ETAG } }))).toEqual(
      [],
    );
    expect(
      checker.violations(observed({ url: '/v1/pets/9', status: 404, body: error(404, 'pet_not_found'), headers: DEPRECATION })),
    ).toEqual([]);
    expect(checker.violations(observed({ url: '/healthz', body: { status: 'ok' } }))).toEqual([]);
  });

  it('refuses a status the operation does not document', () => {
    expect(checker.violations(observed({ method: 'POST', status: 200, body: pet }))[0]).toMatch(
      /^POST \/v1\/pets → 200: status 200 is not documented for createPet \(documented: 201, 400, /,
    );
  });

  it('refuses a body against its schema, and a missing or invalid header', () => {
    const [body] = checker.violations(observed({ body: [{ id: 1, name: 'Rex' }] }));
    expect(body).toMatch(
      /body breaks the contract \(\/paths\/~1pets\/get\/responses\/200\/content\/application~1json\/schema\): data\/0 must have required property 'categoryId'/,
    );
    expect(checker.violations(observed({ method: 'POST', status: 201, body: pet, headers: ETAG }))).toEqual([
      'POST /v1/pets → 201: required header Location is missing',
    ]);
    expect(
      checker.violations(observed({ url: '/v1/pets/1', body: pet, headers: { ...ETAG, ...DEPRECATION, deprecation: undefined } })),
    ).toEqual(['GET /v1/pets/1 → 200: required header Deprecation is missing']);
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
      'GET /v1/pets → 400: status 404 differs from the HTTP status',
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
      'GET /v1/pets → 200: x-powered-by must not be sent',
      'GET /v1/pets → 200: cache-control: no-store is missing (got "max-age=60")',
      'GET /v1/pets → 200: x-content-type-options: nosniff is missing (got undefined)',
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
      'HEAD /v1/pets → 200: a response to HEAD must not have a body (RFC 9110 §9.3.2)',
    ]);
    expect(checker.violations(observed({ method: 'HEAD', url: '/v1/pets/1', text: '', headers: ETAG }))).toEqual([
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

  it('names the check of each finding', () => {
    const findings = checker.findings(
      observed({ status: 400, body: error(404, 'validation_failed'), headers: { 'cache-control': undefined } }),
    );
    expect(findings.map(({ check }) => check)).toEqual(['required_response_headers', 'error_schema_conformance']);
  });
});

describe('the contract check of a response, by the spec alone', () => {
  const board = new ContractChecker(parseSpec(readFileSync(BOARD_SPEC, 'utf8')));
  const html = { 'content-type': 'text/html; charset=utf-8' };

  it('asks nothing the spec does not: no house headers, any error body the operation documents', () => {
    expect(specOnly.violations(observed({ body: [pet], headers: { 'cache-control': undefined, 'x-powered-by': 'Express' } }))).toEqual([]);
    expect(specOnly.violations(observed({ url: '/v1/pets/', body: [] }))).toEqual([]);
    expect(
      board.violations(observed({ url: '/v1/games/1', status: 404, body: undefined, text: '<p>No such game</p>', headers: html })),
    ).toEqual([]);
  });

  it('checks a text body against a string schema', () => {
    const long = `<p>${'x'.repeat(300)}</p>`;
    expect(
      board.findings(observed({ url: '/v1/games/1', status: 404, body: undefined, text: long, headers: html })).map(({ check }) => check),
    ).toEqual(['response_schema_conformance']);
  });

  it('excuses 401 and 403 without valid credentials, and a client error where the operation documents none', () => {
    const noAuth = observed({ url: '/v1/games/1', status: 401, body: undefined, text: 'no', headers: { 'content-type': 'text/plain' } });
    expect(board.violations(noAuth, 'unauthenticated')).toEqual([]);
    expect(board.violations(noAuth, 'valid')[0]).toMatch(/status 401 is not documented for getGame/);
    const created = observed({ method: 'POST', url: '/v1/games', status: 400, body: undefined, text: 'bad' });
    expect(board.violations(created, 'invalid')).toEqual([]);
    expect(board.violations(observed({ url: '/v1/games/1', status: 400, body: undefined, text: 'bad' }), 'invalid')[0]).toMatch(
      /status 400 is not documented for getGame/,
    );
  });

  it('reads header values as their schema types, and media type ranges', () => {
    expect(coerceHeader('42', { type: 'integer' })).toBe(42);
    expect(coerceHeader('true', { type: 'boolean' })).toBe(true);
    expect(coerceHeader('a, b', { type: 'array' })).toEqual(['a', 'b']);
    expect(coerceHeader('4x', { type: 'integer' })).toBe('4x');
    expect(
      board.violations(observed({ url: '/v1/games/1', body: { gameId: 1 }, headers: { 'content-type': 'application json' } })),
    ).toEqual(['GET /v1/games/1 → 200: Content-Type application json is not a media type']);
    expect(board.violations(observed({ url: '/v1/games/1', body: { gameId: 1 }, headers: { 'content-type': undefined } }))).toEqual([
      'GET /v1/games/1 → 200: no Content-Type, but one of application/json is documented',
    ]);
  });
});

describe('the contract check of a response with writeOnly and readOnly properties', () => {
  for (const version of ['3.0.3', '3.1.0'] as const) {
    it(`does not require a writeOnly property of a response, but still the others (${version})`, () => {
      const cards = new ContractChecker(parseSpec(JSON.stringify(cardsSpec(version))));
      const made = (body: unknown) =>
        observed({ method: 'POST', url: '/api/cards', status: 201, body, headers: { 'content-type': 'application/json' } });
      const id = '123e4567-e89b-12d3-a456-426614174000';
      expect(cards.violations(made({ id, number: '4111111111111111' }))).toEqual([]);
      expect(cards.violations(made({ number: '4111111111111111' }))[0]).toMatch(/must have required property 'id'/);
    });
  }
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

  /** A spec whose Pet has an `$id` and, inside it, `$ref`s to the document's components. */
  const idSpec = (tag: unknown = { $ref: '#/components/schemas/Tag' }) =>
    parseSpec(
      JSON.stringify({
        openapi: '3.1.0',
        info: { title: 'ids', version: '1' },
        paths: {
          '/pets': {
            get: {
              responses: {
                '200': { description: 'a pet', content: { 'application/json': { schema: { $ref: '#/components/schemas/Pet' } } } },
              },
            },
          },
          '/tags': {
            get: {
              responses: {
                '200': { description: 'a tag', content: { 'application/json': { schema: { $ref: '#/components/schemas/Tag' } } } },
              },
            },
          },
        },
        components: {
          schemas: {
            Pet: {
              $id: 'https://example.com/schemas/pet',
              type: 'object',
              required: ['name'],
              properties: { name: { type: 'string' }, tag: tag, self: { $ref: '#/properties/name' } },
            },
            Tag: { type: 'object', required: ['label'], properties: { label: { type: 'string' } } },
          },
        },
      }),
    );

  it('resolves a `$ref` inside an `$id` against the document when it names nothing in the `$id`, with a warning', () => {
    const checker = new ContractChecker(idSpec(), { basePath: '' });
    expect(checker.warnings).toHaveLength(1);
    expect(checker.warnings[0]).toMatch(
      /^the \$ref #\/components\/schemas\/Tag at #\/components\/schemas\/Pet\/properties\/tag, inside the schema #\/components\/schemas\/Pet whose \$id is https:\/\/example.com\/schemas\/pet, names nothing in that schema: read against the document/,
    );
    expect(checker.violations(observed({ url: '/pets', body: { name: 'Rex', tag: { label: 'a' }, self: 'x' } }))).toEqual([]);
    expect(checker.violations(observed({ url: '/pets', body: { name: 'Rex', tag: {} } })).join('\n')).toMatch(/label/);
    // A `$ref` the `$id`'s own schema holds is read there, as JSON Schema says.
    expect(checker.violations(observed({ url: '/pets', body: { name: 'Rex', self: 1 } })).join('\n')).toMatch(/self/);
  });

  it('warns of a schema it cannot compile, naming it and the check, and checks everything else', () => {
    const checker = new ContractChecker(idSpec({ $ref: '#/components/schemas/Nowhere' }), { basePath: '' });
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
