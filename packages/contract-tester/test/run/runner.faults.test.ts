import { describe, expect, it } from 'vitest';
import { Credentials } from '../../src/http/credentials.js';
import { failureReport, failureTitle } from '../../src/report/report.js';
import { runContractTests, type Failure, type RunOptions, type RunResult } from '../../src/run/runner.js';
import { readApiModel } from '../../src/spec/model.js';
import type { OpenApiDocument } from '../../src/spec/openapi.js';
import {
  contractFromDocument,
  createHandlers,
  createTestApi,
  openTestStorage,
  PET_STORE_PROFILE,
  type OperationHandlers,
  type OperationResult,
  petStoreDocument,
} from '../support/pet-store.js';

/**
 * The proof that the contract tester finds bugs in the pet store: the real server with one fault
 * each (a handler swapped, or the server built from a spec that is wrong in one place), and the
 * tester with the real openapi.yaml and the pet store's house rules. Each fault must be found,
 * named, shrunk to a minimal case, and reported as curl with the command that replays it.
 */

const SEED = 20261121;
const COMMAND = 'npx openapi-contract-tester --spec openapi.yaml';

interface Faulty {
  baseUrl: string;
  key: string;
}

async function faultyServer(options: {
  handlers?: (real: OperationHandlers) => Partial<OperationHandlers>;
  spec?: (document: OpenApiDocument) => void;
}): Promise<Faulty> {
  const storage = await openTestStorage();
  const real = createHandlers({ storage, basePath: '/v1' });
  const document = structuredClone(petStoreDocument());
  options.spec?.(document);
  const server = await createTestApi({ storage, contract: contractFromDocument(document), handlers: options.handlers?.(real) ?? {} });
  return { baseUrl: `${server.origin}/v1`, key: server.key };
}

async function run(server: Faulty, options: Partial<RunOptions>): Promise<RunResult> {
  return runContractTests({
    baseUrl: server.baseUrl,
    credentials: { apiKey: server.key },
    requests: 300,
    seed: SEED,
    document: petStoreDocument(),
    profile: PET_STORE_PROFILE,
    phases: ['fuzzing'],
    ...options,
  });
}

/** The failure named, reported with curl and the replay command; replaying it fails the same way. */
async function expectFoundAndReported(server: Faulty, result: RunResult, title: string, options: Partial<RunOptions>): Promise<Failure> {
  const failure = result.failures.find((candidate) => failureTitle(candidate) === title);
  expect(failure, `${title} among ${result.failures.map(failureTitle).join(', ')}`).toBeDefined();
  const report = failureReport(result, failure!, { credentials: new Credentials({ apiKey: server.key }), command: COMMAND });
  expect(report).toContain(`✗ ${title}`);
  expect(report).toMatch(/\n {4}curl -i --path-as-is -g /);
  expect(report).toContain('"Authorization: Bearer $CONTRACT_TEST_API_KEY"');
  expect(report).not.toContain(server.key);
  expect(report).toContain(`${COMMAND} --seed ${SEED} --replay '${failure!.scenario}' --replay-path '${failure!.path}'`);
  const replayed = await run(server, { ...options, replay: { scenario: failure!.scenario, path: failure!.path! } });
  const again = replayed.failures.find((candidate) => failureTitle(candidate) === title)!;
  expect(again, 'the replay fails the same way').toBeDefined();
  const shape = (steps: Failure['steps']) => steps.map(({ request }) => `${request.method} ${request.target.replace(/\d+$/, 'N')}`);
  expect(shape(again.steps)).toEqual(shape(failure!.steps));
  return failure!;
}

const bodyOf = (failure: Failure, step = 0) => JSON.parse(failure.steps[step]!.request.body!.toString('utf8')) as Record<string, unknown>;

/**
 * The smallest valid createPet body fast-check shrinks to: category 1, no status, a name of one
 * character (or two, such as "! ": shrinking drops characters from the front, and " " is no name).
 */
const NEW_PET = petStoreDocument().components.schemas['NewPet'] as { properties: object; required: string[] };

/** Shrunk as far as it goes: the required fields alone, each as small as its schema allows. */
function expectMinimalNewPet(body: Record<string, unknown>): void {
  expect(Object.keys(body)).toEqual(NEW_PET.required);
  expect([...(body['name'] as string)].length).toBeLessThanOrEqual(2);
  expect(body['categoryId']).toBe(1);
}

// Each run sends a few hundred requests and shrinks what it finds: more than the default 30 s on a busy machine.
describe('a spec whose schemas the checker reads in part', { timeout: 120_000 }, () => {
  it('goes on past a schema with an `$id` whose `$ref`s name the document, and past one it cannot compile', async () => {
    const server = await faultyServer({});
    const document = structuredClone(petStoreDocument());
    const schemas = document.components.schemas as Record<string, Record<string, unknown>>;
    // The Pet's `$ref`s (#/components/schemas/PetName, …) name nothing under its `$id`.
    schemas['Pet']!['$id'] = 'https://example.com/schemas/pet';
    // And a schema no validator can compile: a `$ref` to nothing.
    schemas['Error']!['properties'] = { ...(schemas['Error']!['properties'] as object), broken: { $ref: '#/components/schemas/Nowhere' } };
    const result = await run(server, { document, requests: 60 });
    expect(result.failures.map(failureTitle)).toEqual([]);
    expect(result.requests).toBeGreaterThan(60);
    expect(result.warnings.filter((warning) => warning.includes('https://example.com/schemas/pet')).length).toBeGreaterThan(0);
    expect(result.warnings.some((warning) => /Nowhere.*; \w+_conformance does not check the answers it describes$/.test(warning))).toBe(
      true,
    );
  });
});

describe('the contract tester against broken pet stores', { timeout: 120_000 }, () => {
  it('finds a 500 on a boundary value (the largest page) and shrinks to that one parameter', async () => {
    const server = await faultyServer({
      handlers: (real) => ({
        listPets: async (request) => {
          if (request.query.limit === 100) throw new Error('off by one');
          return real.listPets(request);
        },
      }),
    });
    const options = { filters: { operations: ['listPets'] } };
    const failure = await expectFoundAndReported(server, await run(server, options), 'not_a_server_error · listPets · 500', options);
    expect(failure.steps.map(({ request }) => request.target)).toEqual(['/v1/pets?limit=100']);
    expect(failure.message).toMatch(/^GET \/v1\/pets\?limit=100 → a server error: 500 /);
  });

  it('finds the same boundary in the coverage phase, at once', async () => {
    const server = await faultyServer({
      handlers: (real) => ({
        listPets: async (request) => (request.query.limit === 100 ? Promise.reject(new Error('off by one')) : real.listPets(request)),
      }),
    });
    const result = await run(server, { filters: { operations: ['listPets'] }, phases: ['coverage'] });
    expect(result.failures.map((failure) => `${failureTitle(failure)} (${failure.scenario}: ${failure.why})`)).toEqual([
      'not_a_server_error · listPets · 500 (listPets: coverage: query parameter limit: the maximum, 100)',
    ]);
  });

  it('finds an undocumented status and shrinks the body to the smallest valid one', async () => {
    const server = await faultyServer({
      handlers: (real) => ({ createPet: async (request) => ({ ...(await real.createPet(request)), status: 200 }) as never }),
    });
    const options = { filters: { operations: ['createPet'] } };
    const failure = await expectFoundAndReported(server, await run(server, options), 'status_code_conformance · createPet · 200', options);
    expect(failure.message).toMatch(/^POST \/v1\/pets → 200: status 200 is not documented for createPet \(documented: 201, /);
    expectMinimalNewPet(bodyOf(failure));
    expect(failure.steps[0]!.request.headers).toEqual([{ name: 'Content-Type', value: 'application/json' }]);
  });

  it('finds a required response field dropped (a server built from a spec that lost it)', async () => {
    const server = await faultyServer({
      spec: (document) => {
        document.components.schemas['Pet']!['required'] = ['id', 'name'];
      },
      handlers: (real) => ({
        createPet: async (request) => {
          // Without its Idempotency-Key the real handler answers with the pet itself, not recorded bytes.
          const result = (await real.createPet({ ...request, headers: {} })) as OperationResult<'createPet'>;
          const { categoryId: _dropped, ...body } = result.body;
          return { ...result, body } as never;
        },
      }),
    });
    const options = { filters: { operations: ['createPet'] } };
    const failure = await expectFoundAndReported(
      server,
      await run(server, options),
      'response_schema_conformance · createPet · 201',
      options,
    );
    expect(failure.message).toMatch(/^POST \/v1\/pets → 201 body breaks the contract .*must have required property 'categoryId'/);
    expectMinimalNewPet(bodyOf(failure));
  });

  it('finds an invalid body accepted (a server whose spec allows extra properties)', async () => {
    const server = await faultyServer({ spec: (document) => void delete document.components.schemas['NewPet']!['additionalProperties'] });
    const options = { filters: { operations: ['createPet'] } };
    const failure = await expectFoundAndReported(server, await run(server, options), 'negative_data_rejection · createPet · 201', options);
    expect(failure.scenario).toBe('createPet: extra property');
    expect(failure.message).toMatch(/^POST \/v1\/pets → a request that breaks the contract must be refused with a 4xx, but got 201 /);
    const body = bodyOf(failure);
    const extra = Object.keys(body).filter((name) => !Object.keys(NEW_PET.properties).includes(name));
    expect(extra).toHaveLength(1);
    expectMinimalNewPet(Object.fromEntries(Object.entries(body).filter(([name]) => !extra.includes(name))));
  });

  it('finds a created pet lost: read back after its create (shrunk to create, then read), and by the listing', async () => {
    let next = 1_000_000;
    const server = await faultyServer({
      handlers: () => ({
        createPet: async ({ body }) => {
          next += 1;
          return { status: 201, body: { ...body, id: next }, headers: { Location: `/v1/pets/${next}`, ETag: `"${next}-1"` } };
        },
      }),
    });
    const options: Partial<RunOptions> = {
      requests: 200,
      phases: ['stateful'],
      filters: { operations: ['createPet', 'getPet', 'listPets'] },
    };
    const result = await run(server, options);
    const titles = result.failures.map(failureTitle);
    expect(titles).toEqual(
      expect.arrayContaining([
        'ensure_resource_availability · getPet · 404',
        'links_succeed · getPet · 404',
        'listing_audit · listPets · 200',
      ]),
    );
    const lost = await expectFoundAndReported(server, result, 'ensure_resource_availability · getPet · 404', options);
    expect(lost.steps.map(({ request }) => `${request.method} ${request.target.replace(/\d+$/, 'N')}`)).toEqual([
      'POST /v1/pets',
      'GET /v1/pets/N',
    ]);
    expectMinimalNewPet(bodyOf(lost));
    const audit = result.failures.find((failure) => failure.check === 'listing_audit')!;
    expect(audit.message).toMatch(/created by createPet \(\/v1\/pets\/\d+\), appears 0 times in listPets/);
    // The audit depends on the whole run: it has no path of its own to replay. What the lost pets
    // leave never answered with a 2xx: the run's reads of one pet by its id, read from the spec.
    const readsOfOne = readApiModel(petStoreDocument()).operations.filter(
      ({ id, method, path }) => options.filters!.operations!.includes(id) && method === 'get' && /\{\w+\}$/.test(path),
    );
    expect(readsOfOne).not.toEqual([]);
    expect(result.notExercised).toEqual(readsOfOne.map(({ id }) => id));
  });
});
