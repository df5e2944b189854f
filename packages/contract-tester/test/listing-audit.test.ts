import { describe, expect, it } from 'vitest';
import { auditCollection, findCollections } from '../src/listing-audit.js';
import { CaseFailure, type Session } from '../src/session.js';
import type { TestRequest } from '../src/requests.js';
import { operationOf, testerSession } from './support/tester-session.js';
import { backends, createTestApi } from './support/pet-store.js';

async function createPets(session: Session, count: number): Promise<void> {
  for (let index = 0; index < count; index += 1) {
    const request: TestRequest = {
      method: 'POST',
      target: '/v1/pets',
      headers: [{ name: 'Content-Type', value: 'application/json' }],
      credentials: { kind: 'key', schemes: [{ type: 'bearer' }] },
      body: Buffer.from(JSON.stringify({ name: `pet ${index}`, categoryId: index + 1 })),
    };
    await session.send({ kind: 'positive', operation: operationOf(session, 'createPet'), request });
  }
}

describe('the collections of the spec', () => {
  it('pair createPet with listPets, identified by the id its link reads', () => {
    const session = testerSession({ origin: 'http://127.0.0.1:1', key: 'psk_x' });
    const [collection, ...others] = findCollections(session.api);
    expect(others).toEqual([]);
    expect(collection).toMatchObject({
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
    expect(await auditCollection(session, findCollections(session.api)[0]!, 10)).toEqual({ complete: true, pages: 3 });
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
    skipping.created.push(...session.created);
    const failure = (await auditCollection(skipping, findCollections(skipping.api)[0]!, 10).catch(
      (error: unknown) => error,
    )) as CaseFailure;
    expect(failure).toBeInstanceOf(CaseFailure);
    expect(failure.problems).toEqual([
      '{"id":21,"name":"pet 20","categoryId":21}, created by createPet, appears 0 times in listPets (1 pages, 20 items)',
      expect.stringMatching(/"id":22.*appears 0 times/),
      expect.anything(),
      expect.anything(),
      expect.anything(),
    ]);
    expect(failure.steps.map(({ request }) => `${request.method} ${request.target}`)).toEqual([
      'POST /v1/pets',
      'POST /v1/pets',
      'GET /v1/pets',
    ]);
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
    wrong.created.push(...session.created);
    const failure = (await auditCollection(wrong, findCollections(wrong.api)[0]!, 10).catch((error: unknown) => error)) as CaseFailure;
    expect(failure.problems).toEqual([
      '{"id":1,"name":"pet 0","categoryId":1}, created by createPet, appears 2 times in listPets (1 pages, 3 items)',
      'createPet answered {"id":2,"name":"pet 1","categoryId":2}, but listPets lists {"id":2,"name":"changed","categoryId":2}',
    ]);
  });

  it('stops at its page limit, and at a next link that leads back', async () => {
    const server = await createTestApi();
    const session = testerSession(server);
    await createPets(session, 45);
    expect(await auditCollection(session, findCollections(session.api)[0]!, 2)).toEqual({ complete: false, pages: 2 });
    const looping = testerSession(
      await createTestApi({
        storage: server.storage,
        handlers: { listPets: async () => ({ status: 200, body: [], headers: { Link: '</v1/pets>; rel="next"' } }) },
      }),
    );
    const failure = (await auditCollection(looping, findCollections(looping.api)[0]!, 10).catch((error: unknown) => error)) as CaseFailure;
    expect(failure.problems).toEqual(['the next link leads back to /v1/pets']);
  });
});
