import { describe, expect, it } from 'vitest';
import type { TestRequest } from '../../src/generate/requests.js';
import type { Session } from '../../src/stateful/session.js';
import { auditCollection, findCollections } from '../../src/stateful/listing-audit.js';
import { backends, createTestApi } from '../support/pet-store.js';
import { operationOf, testerSession, withKey } from '../support/tester-session.js';

async function createPets(session: Session, count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    const request: TestRequest = {
      method: 'POST',
      target: '/v1/pets',
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      credentials: withKey(session, 'createPet'),
      body: Buffer.from(JSON.stringify({ name: `pet ${index}`, categoryId: index + 1 })),
    };
    expect((await session.send({ kind: 'positive', operation: operationOf(session, 'createPet'), request })).problems).toEqual([]);
  }
}

/** The pets' collection of a session's spec (the spec has others). */
function petsCollection(session: Session) {
  const collection = findCollections(session.api).find(({ create }) => create.id === 'createPet');
  if (!collection) throw new Error('the spec has no collection made by createPet');
  return collection;
}

describe('the collections of the spec', () => {
  it('pair createPet with listPets, identified by the id its link reads', () => {
    const session = testerSession({ origin: 'http://127.0.0.1:1', key: 'psk_x' });
    const collections = findCollections(session.api);
    expect(new Set(collections.map(({ listing }) => listing.id)).size).toBe(collections.length);
    expect(petsCollection(session)).toMatchObject({
      create: { id: 'createPet' },
      listing: { id: 'listPets' },
      identity: '/id',
      next: { name: 'nextPage' },
    });
  });
});

describe.each(backends)('the listing audit [$name]', (backend) => {
  it('finds every created pet exactly once, unchanged, over all pages', async () => {
    const session = testerSession(await createTestApi({ backend }));
    await createPets(session, 45);
    expect(await auditCollection(session, petsCollection(session), 10)).toEqual({ complete: true, pages: 3, problems: [] });
  });
});

describe('the listing audit of a collection whose items the server removes on its own', () => {
  it('reads back what is not listed: an order gone with its pet (a cascade) is no finding, one still there is', async () => {
    const server = await createTestApi();
    const session = testerSession(server);
    await createPets(session, 2);
    for (const petId of [1, 2]) {
      const request: TestRequest = {
        method: 'POST',
        target: '/v1/store/orders',
        headers: [{ name: 'Content-Type', value: 'application/json' }],
        credentials: withKey(session, 'createStoreOrder'),
        body: Buffer.from(JSON.stringify({ petId, quantity: 1 })),
      };
      expect((await session.send({ kind: 'positive', operation: operationOf(session, 'createStoreOrder'), request })).problems).toEqual([]);
    }
    // Pet 1 goes, and the server removes its order with it (a cascade the tester is not told of).
    const removal: TestRequest = { method: 'DELETE', target: '/v1/pets/1', headers: [], credentials: withKey(session, 'deletePet') };
    expect(
      (await session.send({ kind: 'positive', operation: operationOf(session, 'deletePet'), request: removal })).exchange?.response.status,
    ).toBe(204);
    const orders = findCollections(session.api).find(({ create }) => create.id === 'createStoreOrder')!;
    expect(await auditCollection(session, orders, 10)).toEqual({ complete: true, pages: 1, problems: [] });

    // A listing that leaves out an order that is still there is found all the same.
    const hiding = testerSession(
      await createTestApi({ storage: server.storage, handlers: { listStoreOrders: () => ({ status: 200, body: [], headers: {} }) } }),
    );
    for (const resource of session.ledger.resources) hiding.ledger.resources.push(resource);
    const { problems } = await auditCollection(hiding, orders, 10);
    expect(problems.map(({ message }) => message)).toEqual([
      expect.stringContaining('(/v1/store/orders/2), appears 0 times in listStoreOrders'),
    ]);
  });
});

describe('the listing audit', () => {
  it('finds pets the listing leaves out, and names their creates and the first page', async () => {
    const server = await createTestApi();
    const session = testerSession(server);
    await createPets(session, 25);
    const skipping = testerSession(
      await createTestApi({
        storage: server.storage,
        handlers: {
          listPets: async ({ query }) => {
            const rows = await server.storage.listPets({ limit: 100, afterId: undefined, status: undefined });
            return { status: 200, body: rows.filter(({ id }) => id !== 21).slice(0, query.limit) } as never;
          },
        },
      }),
    );
    skipping.ledger.resources.push(...session.ledger.resources);
    const { problems } = await auditCollection(skipping, petsCollection(skipping), 10);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({ check: 'listing_audit', label: 'listPets', status: 200 });
    expect(problems[0]!.message.split('\n')).toEqual([
      '{"id":21,"name":"pet 20","categoryId":21}, created by createPet (/v1/pets/21), appears 0 times in listPets (1 pages, 20 items)',
      expect.stringMatching(/"id":22.*appears 0 times/),
      expect.anything(),
      expect.anything(),
      expect.anything(),
    ]);
    expect(problems[0]!.steps.map(({ request }) => `${request.method} ${request.target}`)).toEqual(['GET /v1/pets']);
  });

  it('finds a pet listed twice or changed', async () => {
    const server = await createTestApi();
    const session = testerSession(server);
    await createPets(session, 2);
    const wrong = testerSession(
      await createTestApi({
        storage: server.storage,
        handlers: {
          listPets: async () => ({
            status: 200,
            body: [
              { id: 1, name: 'pet 0', categoryId: 1 },
              { id: 1, name: 'pet 0', categoryId: 1 },
              { id: 2, name: 'changed', categoryId: 2 },
            ],
          }),
        },
      }),
    );
    wrong.ledger.resources.push(...session.ledger.resources);
    const { problems } = await auditCollection(wrong, petsCollection(wrong), 10);
    expect(problems[0]!.message.split('\n')).toEqual([
      '{"id":1,"name":"pet 0","categoryId":1}, created by createPet (/v1/pets/1), appears 2 times in listPets (1 pages, 3 items)',
      '/v1/pets/2 last answered {"id":2,"name":"pet 1","categoryId":2}, but listPets lists {"id":2,"name":"changed","categoryId":2}',
    ]);
  });

  it('expects a resource as its last write left it, and a deleted one not at all', async () => {
    const server = await createTestApi();
    const session = testerSession(server);
    await createPets(session, 2);
    const [first, second] = session.ledger.resources;
    // What an update answered, and a delete, as the ledger would have them from a PATCH and a DELETE.
    first!.last = { body: { id: 1, name: 'renamed', categoryId: 1 }, schemaPointer: '/components/schemas/Pet' };
    second!.state = 'deleted';
    const listing = testerSession(
      await createTestApi({
        storage: server.storage,
        handlers: {
          listPets: async () => ({
            status: 200,
            body: [
              { id: 1, name: 'renamed', categoryId: 1 },
              { id: 2, name: 'pet 1', categoryId: 2 },
            ],
          }),
        },
      }),
    );
    listing.ledger.resources.push(first!, second!);
    const { problems } = await auditCollection(listing, petsCollection(listing), 10);
    expect(problems.map(({ message }) => message)).toEqual([
      '{"id":2,"name":"pet 1","categoryId":2} (/v1/pets/2), deleted, is still listed by listPets',
    ]);
    second!.state = 'uncertain';
    expect((await auditCollection(listing, petsCollection(listing), 10)).problems).toEqual([]);
  });

  it('stops at its page limit, and at a next link that leads back', async () => {
    const server = await createTestApi();
    const session = testerSession(server);
    await createPets(session, 45);
    expect(await auditCollection(session, petsCollection(session), 2)).toEqual({ complete: false, pages: 2, problems: [] });
    const looping = testerSession(
      await createTestApi({
        storage: server.storage,
        handlers: { listPets: async () => ({ status: 200, body: [], headers: { Link: '</v1/pets>; rel="next"' } }) },
      }),
    );
    const outcome = await auditCollection(looping, petsCollection(looping), 10);
    expect(outcome.complete).toBe(false);
    expect(outcome.problems.map(({ message }) => message)).toEqual(['the next link leads back to /v1/pets']);
  });
});
