import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RequestParts } from '../src/requests.js';
import { CaseFailure, type Session } from '../src/session.js';
import { runSequence, sequences, type Action } from '../src/stateful.js';
import { operationOf, testerSession } from './support/tester-session.js';
import { apiError, backends, createTestApi } from './support/pet-store.js';

const ALL = new Set(['listPets', 'createPet', 'getPet', 'listStoreOrders']);

function call(session: Session, id: string, parts: Partial<RequestParts> = {}): Action {
  const operation = operationOf(session, id);
  return {
    kind: 'call',
    operation,
    parts: {
      method: operation.method.toUpperCase(),
      path: `/v1${operation.path}`,
      pathParameters: {},
      query: [],
      headers: [],
      credentials: { kind: 'key', schemes: operation.credentials },
      ...parts,
    },
  };
}

const create = (session: Session, name = 'Rex') =>
  call(session, 'createPet', { body: { mediaType: 'application/json', value: { name, categoryId: 3 } } });
const follow = (pick = 0): Action => ({ kind: 'follow', pick });

async function failureOf(promise: Promise<unknown>): Promise<CaseFailure> {
  const failure = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(failure).toBeInstanceOf(CaseFailure);
  return failure as CaseFailure;
}

describe.each(backends)('link sequences [$name]', (backend) => {
  it('create, read back by the link, page through by the next links', async () => {
    const session = testerSession(await createTestApi({ backend }));
    await runSequence(session, [create(session, 'a'), create(session, 'b'), create(session, 'c'), follow(0), follow(1)], ALL);
    await runSequence(session, [call(session, 'listPets', { query: [['limit', '1']] }), follow(), follow(1), follow(2)], ALL);
    expect(session.created.map(({ body }) => (body as { name: string }).name)).toEqual(['a', 'b', 'c']);
  });
});

describe('link sequences', () => {
  it('are generated from the operations: requests and follows, at least one request', () => {
    const session = testerSession({ origin: 'http://127.0.0.1:1', key: 'psk_x' });
    const all = fc.sample(sequences(session, session.api.operations), { numRuns: 100, seed: 1 });
    expect(all.every((actions) => actions.some(({ kind }) => kind === 'call'))).toBe(true);
    expect(all.some((actions) => actions.some((action) => action.kind === 'follow'))).toBe(true);
  });

  it('find a created pet the link cannot read back, with every request of the sequence', async () => {
    const session = testerSession(
      await createTestApi({ handlers: { getPet: async ({ path }) => Promise.reject(apiError('pet_not_found', { petId: path.petId })) } }),
    );
    const failure = await failureOf(runSequence(session, [create(session), follow()], ALL));
    expect(failure.problems[0]).toBe('the request: follows link getPet of createPet');
    expect(failure.problems.some((problem) => problem.startsWith('a link from a success must lead to a success'))).toBe(true);
    expect(failure.steps.map(({ request }) => `${request.method} ${request.target}`)).toEqual(['POST /v1/pets', 'GET /v1/pets/1']);
  });

  it('find a pet read back changed', async () => {
    const api = await createTestApi({
      handlers: { getPet: async ({ path }) => ({ status: 200, body: { id: path.petId, name: 'Tom', categoryId: 3 } }) },
    });
    const session = testerSession(api);
    const failure = await failureOf(runSequence(session, [create(session), follow()], ALL));
    expect(failure.problems[1]).toBe(
      'getPet reads back {"id":1,"name":"Tom","categoryId":3}, not what createPet answered: {"id":1,"name":"Rex","categoryId":3}',
    );
  });

  it('find a next page that repeats the page before', async () => {
    const api = await createTestApi({
      handlers: {
        listPets: async () => ({
          status: 200,
          body: [{ id: 1, name: 'Rex', categoryId: 3 }],
          headers: { Link: '</v1/pets?limit=1&cursor=cDE6MQ>; rel="next"' },
        }),
      },
    });
    const session = testerSession(api);
    const failure = await failureOf(runSequence(session, [call(session, 'listPets'), follow()], ALL));
    expect(failure.problems[1]).toBe('the next page repeats 1 item(s) of the page before: {"id":1,"name":"Rex","categoryId":3}');
  });

  it('follow only links to the operations under test', async () => {
    const session = testerSession(
      await createTestApi({
        handlers: {
          getPet: async () => {
            throw new Error('must not be called');
          },
        },
      }),
    );
    await runSequence(session, [create(session), follow()], new Set(['createPet']));
  });
});
