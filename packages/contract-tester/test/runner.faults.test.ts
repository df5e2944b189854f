import { describe, expect, it } from 'vitest';
import type { OpenApiDocument } from '../src/openapi.js';
import { failureReport } from '../src/report.js';
import { runContractTests, type CheckResult, type RunResult } from '../src/runner.js';
import {
  contractFromDocument,
  createHandlers,
  createTestApi,
  openTestStorage,
  type OperationHandlers,
  type OperationResult,
  petStoreDocument,
} from './support/pet-store.js';

/**
 * The proof that the contract tester finds bugs: the real server with one fault each (a handler
 * swapped, or the server built from a spec that is wrong in one place), and the tester with the
 * real openapi.yaml. Each fault must be found, shrunk to a minimal case, and reported as curl with
 * the seed and path that replay it.
 */

const SEED = 20261121;

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

async function run(server: Faulty, checks: string[], requests = 300, extra: { path?: string } = {}): Promise<RunResult> {
  return runContractTests({
    baseUrl: server.baseUrl,
    apiKey: server.key,
    requests,
    seed: SEED,
    checks,
    document: petStoreDocument(),
    ...extra,
  });
}

/** The failed check, reported with a curl command and the replay command; replaying its path fails the same way. */
async function expectFoundAndReported(server: Faulty, result: RunResult, name: string): Promise<CheckResult> {
  const check = result.results.find((candidate) => candidate.name === name)!;
  expect(check.status, name).toBe('failed');
  const failure = check.failure!;
  expect(failure.shrinks).toBeGreaterThanOrEqual(0);
  const report = failureReport(result, check);
  expect(report).toContain(`✗ ${name}`);
  expect(report).toMatch(/\n {4}curl -i --path-as-is -g /);
  expect(report).toContain(`--seed ${SEED} --check '${name}' --path '${failure.path}'`);
  const replayed = (await run(server, [name], 1, { path: failure.path! })).results[0]!;
  expect(replayed.status).toBe('failed');
  expect(replayed.failure!.steps.map(({ request }) => `${request.method} ${request.target.replace(/\d+$/, 'N')}`)).toEqual(
    failure.steps.map(({ request }) => `${request.method} ${request.target.replace(/\d+$/, 'N')}`),
  );
  return check;
}

const bodyOf = (check: CheckResult, step = 0) =>
  JSON.parse(check.failure!.steps[step]!.request.body!.toString('utf8')) as Record<string, unknown>;

/**
 * The smallest valid createPet body fast-check shrinks to: category 1, no status, a name of one
 * character (or two, such as "! ": shrinking drops characters from the front, and " " is no name).
 */
function expectMinimalNewPet(body: Record<string, unknown>): void {
  expect(Object.keys(body).slice(0, 2)).toEqual(['name', 'categoryId']);
  expect([...(body['name'] as string)].length).toBeLessThanOrEqual(2);
  expect(body['categoryId']).toBe(1);
  expect(body).not.toHaveProperty('status');
}

describe('the contract tester against broken servers', () => {
  it('finds a 500 on a boundary value (the largest page) and shrinks to that one parameter', async () => {
    const server = await faultyServer({
      handlers: (real) => ({
        listPets: async (request) => {
          if (request.query.limit === 100) throw new Error('off by one');
          return real.listPets(request);
        },
      }),
    });
    const check = await expectFoundAndReported(server, await run(server, ['listPets: valid requests']), 'listPets: valid requests');
    expect(check.failure!.steps.map(({ request }) => request.target)).toEqual(['/v1/pets?limit=100']);
    expect(check.failure!.problems).toEqual([expect.stringMatching(/^a valid request must be accepted, but got 500 /)]);
  });

  it('finds an undocumented status and shrinks the body to the smallest valid one', async () => {
    const server = await faultyServer({
      handlers: (real) => ({ createPet: async (request) => ({ ...(await real.createPet(request)), status: 200 }) as never }),
    });
    const check = await expectFoundAndReported(server, await run(server, ['createPet: valid requests']), 'createPet: valid requests');
    expect(check.failure!.problems[0]).toBe('POST /v1/pets → 200: status 200 is not documented for createPet');
    expectMinimalNewPet(bodyOf(check));
    expect(check.failure!.steps[0]!.request.headers).toEqual([{ name: 'Content-Type', value: 'application/json' }]);
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
    const check = await expectFoundAndReported(server, await run(server, ['createPet: valid requests']), 'createPet: valid requests');
    expect(check.failure!.problems[0]).toMatch(
      /^POST \/v1\/pets → 201 body breaks the contract .*must have required property 'categoryId'/,
    );
    expectMinimalNewPet(bodyOf(check));
  });

  it('finds an invalid body accepted (a server whose spec allows extra properties)', async () => {
    const server = await faultyServer({
      spec: (document) => {
        delete document.components.schemas['NewPet']!['additionalProperties'];
      },
    });
    const check = await expectFoundAndReported(server, await run(server, ['createPet: extra property']), 'createPet: extra property');
    expect(check.failure!.problems[1]).toMatch(/^a request that breaks the contract must be refused with a 4xx, but got 201 /);
    const body = bodyOf(check);
    const extra = Object.keys(body).filter((name) => !['name', 'categoryId', 'status'].includes(name));
    expect(extra).toHaveLength(1);
    expectMinimalNewPet(Object.fromEntries(Object.entries(body).filter(([name]) => !extra.includes(name))));
  });

  it('finds a created pet lost: by the link to read it back (shrunk to create, then read) and by the listing', async () => {
    let next = 1_000_000;
    const server = await faultyServer({
      handlers: () => ({
        createPet: async ({ body }) => {
          next += 1;
          return { status: 201, body: { ...body, id: next }, headers: { Location: `/v1/pets/${next}` } };
        },
      }),
    });
    const result = await runContractTests({
      baseUrl: server.baseUrl,
      apiKey: server.key,
      requests: 200,
      seed: SEED,
      operations: ['createPet', 'getPet', 'listPets'],
      document: petStoreDocument(),
    });
    const sequences = result.results.find(({ name }) => name === 'links: sequences')!;
    expect(sequences.status).toBe('failed');
    expect(sequences.failure!.steps.map(({ request }) => `${request.method} ${request.target.replace(/\d+$/, 'N')}`)).toEqual([
      'POST /v1/pets',
      'GET /v1/pets/N',
    ]);
    expectMinimalNewPet(bodyOf(sequences));
    expect(sequences.failure!.problems).toContain('the request: follows link getPet of createPet');
    expect(
      sequences.failure!.problems.some((problem) =>
        /^a link from a success must lead to a success, but got 404 .*pet_not_found/.test(problem),
      ),
    ).toBe(true);
    const report = failureReport(result, sequences);
    expect(report).toContain('Reproduce (in this order; the key from $PETSTORE_API_KEY):');
    expect(report).toContain(`--seed ${SEED} --check 'links: sequences' --path '${sequences.failure!.path}'`);
    const audit = result.results.find(({ name }) => name === 'links: listPets lists each createPet once')!;
    expect(audit.status).toBe('failed');
    expect(audit.failure!.problems[0]).toMatch(/created by createPet, appears 0 times in listPets/);
  });
});
