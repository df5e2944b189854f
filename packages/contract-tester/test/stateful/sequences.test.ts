import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { ALL_CHECKS, DEFAULT_CHECKS, type CheckName } from '../../src/registry/checks.js';
import { ContractChecker } from '../../src/checks/response-contract.js';
import { EMPTY_PROFILE } from '../../src/config.js';
import { emptyParts, type RequestParts } from '../../src/generate/requests.js';
import { Credentials } from '../../src/http/credentials.js';
import { ApiClient } from '../../src/http/http-client.js';
import { Session } from '../../src/stateful/session.js';
import { parseSpec } from '../../src/spec/load.js';
import { readApiModel } from '../../src/spec/model.js';
import { creatorsOf, lifecycle, resourceOperations, runSequence, sequences, type Action } from '../../src/stateful/sequences.js';
import { apiError, backends, createTestApi, petStoreDocument } from '../support/pet-store.js';
import { GALLERY_SPEC, GALLERY_USER, startGallery } from '../support/test-bed/gallery.js';
import { planSession } from '../support/plan-session.js';
import type { Bug } from '../support/test-bed/bed-server.js';
import { operationOf, testerSession } from '../support/tester-session.js';

/** Every operation of the pet store's spec. */
const ALL = new Set(readApiModel(petStoreDocument()).operations.map(({ id }) => id));
const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

function call(session: Session, id: string, parts: Partial<RequestParts> = {}, reuse?: number): Action {
  const operation = operationOf(session, id);
  return {
    kind: 'call',
    operation,
    parts: { ...emptyParts(operation, session.api.basePath, session.credentialsFor(operation)), ...parts },
    ...(reuse === undefined ? {} : { reuse }),
  };
}

const create = (session: Session, name = 'Rex') =>
  call(session, 'createPet', { body: { mediaType: 'application/json', value: { name, categoryId: 3 } } });
const follow = (pick = 0): Action => ({ kind: 'follow', pick });
const titles = (problems: Awaited<ReturnType<typeof runSequence>>) =>
  problems.map(({ check, label, status }) => `${check} · ${label} · ${status}`);

/** A session on a gallery bed server (with a bug, maybe), with the default checks (and these). */
async function gallerySession(bug?: Bug, checks: CheckName[] = []): Promise<Session> {
  const server = await startGallery(bug);
  closers.push(server.close);
  const document = parseSpec(readFileSync(GALLERY_SPEC, 'utf8'));
  const api = readApiModel(document);
  const client = new ApiClient(server.baseUrl, new Credentials({ basic: GALLERY_USER }));
  closers.push(() => client.close());
  return new Session(api, client, new ContractChecker(document), {
    checks: new Set([...DEFAULT_CHECKS, ...checks]),
    profile: EMPTY_PROFILE,
  });
}

function exhibitionLife(session: Session, steps: string[]): Action[] {
  const body = { mediaType: 'application/json', value: { title: 'T', room: 'R', price: 1, dates: [] } };
  return [
    call(session, 'createExhibition', { body }),
    ...steps.map((id) =>
      call(session, id, id === 'updateExhibition' ? { body: { mediaType: 'application/merge-patch+json', value: { title: 'U' } } } : {}, 0),
    ),
  ];
}

describe.each(backends)('link sequences [$name]', (backend) => {
  it('create, read back by the link, page through by the next links: nothing wrong', async () => {
    const session = testerSession(await createTestApi({ backend }));
    expect(
      await runSequence(session, [create(session, 'a'), create(session, 'b'), create(session, 'c'), follow(0), follow(1)], ALL),
    ).toEqual([]);
    expect(
      await runSequence(session, [call(session, 'listPets', { query: [['limit', '1']] }), follow(), follow(1), follow(2)], ALL),
    ).toEqual([]);
    expect(session.ledger.resources.map(({ created }) => (created as { name: string }).name)).toEqual(['a', 'b', 'c']);
  });

  it('takes a 4xx from a link whose source the sequence has deleted since as right: an order for a pet that is gone', async () => {
    const session = testerSession(await createTestApi({ backend }));
    const order: Action = { kind: 'follow', pick: 0, to: operationOf(session, 'createStoreOrder') };
    const removed = call(session, 'deletePet', {}, 0);
    expect(titles(await runSequence(session, [create(session), removed, order], ALL))).toEqual([]);
    // The same link, followed while the pet is there, leads to a success, as it must.
    const placed = await runSequence(session, [create(session), order], ALL);
    expect(titles(placed)).toEqual([]);
    expect(session.ledger.resources.filter(({ createdBy }) => createdBy === 'createStoreOrder')).toHaveLength(1);
  });

  it('takes the 404 of what names a resource the sequence deleted as a cascade: an order gone with its pet', async () => {
    const session = testerSession(await createTestApi({ backend }));
    const order: Action = { kind: 'follow', pick: 0, to: operationOf(session, 'createStoreOrder') };
    const steps = [
      create(session),
      order,
      call(session, 'deletePet', {}, 0),
      call(session, 'getStoreOrder', {}, 0),
      call(session, 'deleteStoreOrder', {}, 0),
    ];
    expect(titles(await runSequence(session, steps, ALL))).toEqual([]);
    // An order that is gone while its pet is there is lost, and found.
    const losing = testerSession(
      await createTestApi({ backend, handlers: { getStoreOrder: () => Promise.reject(apiError('order_not_found', { orderId: 1 })) } }),
    );
    const lost = [create(losing), { ...order, to: operationOf(losing, 'createStoreOrder') }, call(losing, 'getStoreOrder', {}, 0)];
    expect(titles(await runSequence(losing, lost, ALL))).toEqual(['ensure_resource_availability · getStoreOrder · 404']);
  });

  it("follows a link's If-Match: its 412 is right once the resource changed since the link, and reported otherwise", async () => {
    const writes = new Set([...ALL, 'updatePet', 'deletePet']);
    const session = testerSession(await createTestApi({ backend }));
    const sold = call(session, 'updatePet', { body: { mediaType: 'application/merge-patch+json', value: { status: 'sold' } } }, 0);
    // Links seen: the create's getPet, updatePet, deletePet, createStoreOrder (0 to 3), then the
    // update's getPet, updatePet, deletePet (4 to 6).
    expect(await runSequence(session, [create(session), sold, follow(2), follow(6), follow(0)], writes)).toEqual([]);
    const [pet] = session.ledger.resources;
    expect([pet!.state, pet!.writes]).toEqual(['deleted', 3]);

    const refusing = testerSession(
      await createTestApi({
        backend,
        handlers: { deletePet: async ({ path }) => Promise.reject(apiError('precondition_failed', { petId: path.petId })) },
      }),
    );
    expect(titles(await runSequence(refusing, [create(refusing), follow(2)], writes))).toEqual(['links_succeed · deletePet · 412']);
  });

  it('follows a link to a resource it only read: its 404 is right once the sequence deleted it, and reported otherwise', async () => {
    const writes = new Set([...ALL, 'updatePet', 'deletePet']);
    // A pet another sequence made, which the next knows only from reading it.
    const read = async (on: Session) => {
      await runSequence(on, [create(on)], writes);
      const petId = on.ledger.resources.at(-1)!.path.split('/').at(-1)!;
      return call(on, 'getPet', { pathParameters: { petId } });
    };
    const session = testerSession(await createTestApi({ backend }));
    // getPet's links: updatePet, deletePet (0, 1); the first DELETE takes the pet, the second finds
    // it gone.
    expect(await runSequence(session, [await read(session), follow(1), follow(1)], writes)).toEqual([]);

    const missing = testerSession(
      await createTestApi({
        backend,
        handlers: { deletePet: async ({ path }) => Promise.reject(apiError('pet_not_found', { petId: path.petId })) },
      }),
    );
    expect(titles(await runSequence(missing, [await read(missing), follow(1)], writes))).toEqual(['links_succeed · deletePet · 404']);
  });
});

describe('sequences', () => {
  it('find the creates that make what an operation acts on', () => {
    const session = planSession(GALLERY_SPEC, { basic: 'a:b' });
    const operations = session.api.operations;
    const update = operations.find(({ id }) => id === 'updateExhibition')!;
    expect(creatorsOf(session, update, operations).map(({ id }) => id)).toEqual(['createExhibition']);
    expect(creatorsOf(session, update, [update])).toEqual([]);
  });

  it('are generated from the operations: requests and follows, at least one request', () => {
    const session = testerSession({ origin: 'http://127.0.0.1:1', key: 'psk_x' });
    const all = fc.sample(sequences(session, session.api.operations), { numRuns: 100, seed: 1 });
    expect(all.every((actions) => actions.some(({ kind }) => kind === 'call'))).toBe(true);
    expect(all.some((actions) => actions.some((action) => action.kind === 'follow'))).toBe(true);
  });

  it('and lifecycles: a create, then requests on what it made', async () => {
    const session = await gallerySession();
    const create = operationOf(session, 'createExhibition');
    expect(resourceOperations(session, create, session.api.operations).map(({ id }) => id)).toEqual([
      'getExhibition',
      'deleteExhibition',
      'updateExhibition',
    ]);
    const lives = fc.sample(lifecycle(session, create, session.api.operations)!, { numRuns: 50, seed: 2 });
    for (const [first, ...rest] of lives) {
      expect(first).toMatchObject({ kind: 'call', operation: { id: 'createExhibition' } });
      expect(rest.every((action) => action.kind === 'follow' || action.reuse !== undefined)).toBe(true);
    }
  });

  it('and, for a create a link gives a body, lifecycles that reach it through that link: the order of a pet made first', async () => {
    const session = testerSession(await createTestApi());
    const create = operationOf(session, 'createStoreOrder');
    const lives = fc.sample(lifecycle(session, create, session.api.operations)!, { numRuns: 50, seed: 2 });
    const starts = new Set(lives.map(([first]) => (first as { operation: { id: string } }).operation.id));
    expect(starts).toEqual(new Set(['createStoreOrder', 'createPet']));
    for (const [, second] of lives.filter(([first]) => first!.kind === 'call' && first!.operation.id === 'createPet'))
      expect(second).toMatchObject({ kind: 'follow', to: create });
    // Run, such a start places an order for the pet it made, and the order is there to act on.
    const [pet, order] = lives.find(([first]) => first!.kind === 'call' && first!.operation.id === 'createPet')!;
    expect(await runSequence(session, [pet!, order!], ALL)).toEqual([]);
    expect(session.ledger.resources.map(({ createdBy }) => createdBy)).toEqual(['createPet', 'createStoreOrder']);
  });

  it('find a created pet the link cannot read back (ensure_resource_availability; links_succeed), with every request of the sequence', async () => {
    const session = testerSession(
      await createTestApi({ handlers: { getPet: async ({ path }) => Promise.reject(apiError('pet_not_found', { petId: path.petId })) } }),
    );
    const problems = await runSequence(session, [create(session), follow()], ALL);
    expect(titles(problems)).toEqual(['ensure_resource_availability · getPet · 404', 'links_succeed · getPet · 404']);
    expect(problems[0]!.why).toBe('follows link getPet of createPet');
    expect(problems[0]!.steps.map(({ request }) => `${request.method} ${request.target}`)).toEqual(['POST /v1/pets', 'GET /v1/pets/1']);
  });

  it('find a pet read back changed (read_back)', async () => {
    const api = await createTestApi({
      handlers: {
        getPet: async ({ path }) => ({
          status: 200,
          body: { id: path.petId, name: 'Tom', categoryId: 3 },
          headers: { ETag: `"${path.petId}-1"` },
        }),
      },
    });
    const session = testerSession(api);
    const [problem] = await runSequence(session, [create(session), follow()], ALL);
    expect(problem!.message).toBe(
      'GET /v1/pets/1 → 200: reads back {"id":1,"name":"Tom","categoryId":3}, not what the last write answered: {"id":1,"name":"Rex","categoryId":3}',
    );
  });

  it('find a next page that repeats the page before (paging_conformance)', async () => {
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
    const [problem] = await runSequence(session, [call(session, 'listPets'), follow()], ALL);
    expect(problem).toMatchObject({ check: 'paging_conformance' });
    expect(problem!.message).toMatch(/the next page repeats 1 item\(s\) of the page before: \{"id":1,"name":"Rex","categoryId":3\}$/);
  });

  it('follow only links to the operations under test', async () => {
    const session = testerSession(
      await createTestApi({ handlers: { getPet: async () => Promise.reject(new Error('must not be called')) } }),
    );
    expect(await runSequence(session, [create(session), follow()], new Set(['createPet']))).toEqual([]);
  });

  it('know an update changes what a read returns, and a delete ends the resource', async () => {
    const session = await gallerySession(undefined, ['read_back', 'delete_is_final']);
    const life = exhibitionLife(session, [
      'getExhibition',
      'updateExhibition',
      'getExhibition',
      'deleteExhibition',
      'getExhibition',
      'updateExhibition',
      'deleteExhibition',
    ]);
    expect(await runSequence(session, life, new Set(session.api.operations.map(({ id }) => id)))).toEqual([]);
    expect(session.successes.get('updateExhibition')).toBe(1);
    expect(session.ledger.resources.map(({ state }) => state)).toEqual(['deleted']);
  });

  it('find a deleted resource still served (use_after_free), and deleted again (delete_is_final)', async () => {
    const session = await gallerySession('serves-deleted', ['delete_is_final']);
    const life = exhibitionLife(session, ['deleteExhibition', 'getExhibition', 'updateExhibition', 'deleteExhibition']);
    const problems = await runSequence(session, life, new Set(session.api.operations.map(({ id }) => id)));
    expect(titles(problems)).toEqual([
      'use_after_free · getExhibition · 200',
      'use_after_free · updateExhibition · 200',
      'delete_is_final · deleteExhibition · 204',
    ]);
    expect(problems[0]!.steps.map(({ request }) => request.method)).toEqual(['POST', 'DELETE', 'GET']);
  });

  it('find a create lost (ensure_resource_availability), from the id in its answer', async () => {
    const session = await gallerySession('loses-creates');
    const problems = await runSequence(
      session,
      exhibitionLife(session, ['getExhibition']),
      new Set(session.api.operations.map(({ id }) => id)),
    );
    expect(titles(problems)).toEqual(['ensure_resource_availability · getExhibition · 404']);
  });

  it('leave out the findings of checks that are off', async () => {
    const session = testerSession(
      await createTestApi({ handlers: { getPet: async ({ path }) => Promise.reject(apiError('pet_not_found', { petId: path.petId })) } }),
    );
    const quiet = new Session(session.api, session.client, session.checker, {
      checks: new Set(ALL_CHECKS.filter((check) => check !== 'ensure_resource_availability' && check !== 'links_succeed')),
      profile: session.settings.profile,
    });
    expect(await runSequence(quiet, [create(quiet), follow()], ALL)).toEqual([]);
  });
});
