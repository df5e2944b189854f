import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { createPet } from '../../src/handlers/create-pet.js';
import type { RecordedResult } from '../../src/handlers/operation.js';
import { FIRST_PET_VERSION } from '../../src/storage/pets/pets.js';
import type { Principal, Storage } from '../../src/storage/storage.js';
import { backends, postgresBackend } from '../support/backends.js';
import { operationRequest } from '../support/operation-request.js';
import { openTestStorage } from '../support/test-app.js';
import { openStorage } from '../../src/storage/open-storage.js';

const DAY_SECONDS = 86_400;
const START = new Date('2030-01-01T00:00:00.000Z');

/** A handler on `storage` whose clock the test moves. */
function handlerAt(storage: Storage, clock: { now: Date }, basePath = '/v1') {
  return createPet({ storage, basePath, clock: () => clock.now, idempotencyRetentionSeconds: DAY_SECONDS });
}

async function principalOf(storage: Storage, name: string): Promise<Principal> {
  const account = await storage.ensureAccount(name);
  return { keyId: account.id, accountId: account.id, accountName: name };
}

/** A keyed createPet request of `principal`. */
function keyed(principal: Principal, key: string, body: { name: string; categoryId: number; status?: 'available' | 'pending' | 'sold' }) {
  return operationRequest<'createPet'>({ body, principal, headers: { 'Idempotency-Key': key } });
}

const text = (result: unknown) => Buffer.from((result as RecordedResult<'createPet'>).recorded.body).toString();

describe.each(backends)('createPet handler [$name]', (backend) => {
  it('stores the pet and answers 201 with it, its ETag and the path to read it back (getPet)', async () => {
    const storage = await openTestStorage(backend);
    const handler = handlerAt(storage, { now: START });
    const result = await handler(operationRequest({ body: { name: 'Rex', categoryId: 3, status: 'available' } }));
    expect(result).toEqual({
      status: 201,
      body: { id: 1, name: 'Rex', categoryId: 3, status: 'available' },
      headers: { Location: '/v1/pets/1', ETag: '"1-1"' },
    });
    expect(await storage.getPet(1)).toEqual({
      pet: { id: 1, name: 'Rex', categoryId: 3, status: 'available' },
      version: FIRST_PET_VERSION,
    });
  });

  it('leaves an omitted status absent', async () => {
    const handler = handlerAt(await openTestStorage(backend), { now: START }, '/v2');
    const result = await handler(operationRequest({ body: { name: 'Tom', categoryId: 4 } }));
    expect(result).toEqual({
      status: 201,
      body: { id: 1, name: 'Tom', categoryId: 4 },
      headers: { Location: '/v2/pets/1', ETag: '"1-1"' },
    });
  });

  it('with an Idempotency-Key, answers with the rendered response it recorded, and replays it to a retry without creating anything', async () => {
    const storage = await openTestStorage(backend);
    const alice = await principalOf(storage, 'alice');
    const handler = handlerAt(storage, { now: START });
    const first = await handler(keyed(alice, '"k-1"', { name: 'Rex', categoryId: 3 }));
    const recorded = {
      status: 201,
      headers: { Location: '/v1/pets/1', ETag: '"1-1"' },
      body: Buffer.from('{"id":1,"name":"Rex","categoryId":3}'),
    };
    expect(first).toEqual({ recorded, replayed: false });

    // The same key in its bare form, and the same body with its keys in another order.
    const retry = await handler(keyed(alice, 'k-1', { categoryId: 3, name: 'Rex' }));
    expect(retry).toEqual({ recorded, replayed: true });
    expect(text(retry)).toBe(text(first));
    expect(await storage.listPets({ limit: 10 })).toHaveLength(1);
  });

  it('refuses the same key with a different body (422) and creates nothing', async () => {
    const storage = await openTestStorage(backend);
    const alice = await principalOf(storage, 'alice');
    const handler = handlerAt(storage, { now: START });
    await handler(keyed(alice, 'k-1', { name: 'Rex', categoryId: 3 }));
    await expect(handler(keyed(alice, 'k-1', { name: 'Rex', categoryId: 3, status: 'sold' }))).rejects.toMatchObject({
      code: 'idempotency_key_reused',
      status: 422,
    });
    expect(await storage.listPets({ limit: 10 })).toHaveLength(1);
  });

  it('keeps keys per account: another account with the same key makes its own pet', async () => {
    const storage = await openTestStorage(backend);
    const [alice, bob] = [await principalOf(storage, 'alice'), await principalOf(storage, 'bob')];
    const handler = handlerAt(storage, { now: START });
    const forAlice = await handler(keyed(alice, 'shared', { name: 'Rex', categoryId: 3 }));
    const forBob = await handler(keyed(bob, 'shared', { name: 'Rex', categoryId: 3 }));
    expect(forBob).toMatchObject({ recorded: { headers: { Location: '/v1/pets/2' } }, replayed: false });
    // Bob's key with another body is no business of Alice's record, and the other way round.
    await expect(handler(keyed(bob, 'shared', { name: 'Tom', categoryId: 3 }))).rejects.toMatchObject({ status: 422 });
    expect(await handler(keyed(alice, 'shared', { name: 'Rex', categoryId: 3 }))).toEqual({ ...forAlice, replayed: true });
    expect(await storage.listPets({ limit: 10 })).toHaveLength(2);
  });

  it('keeps a record for the retention period; from its end on, the key is new again', async () => {
    const storage = await openTestStorage(backend);
    const alice = await principalOf(storage, 'alice');
    const clock = { now: START };
    const handler = handlerAt(storage, clock);
    await handler(keyed(alice, 'k-1', { name: 'Rex', categoryId: 3 }));

    clock.now = new Date(START.getTime() + DAY_SECONDS * 1000 - 1);
    expect(await handler(keyed(alice, 'k-1', { name: 'Rex', categoryId: 3 }))).toMatchObject({ replayed: true });
    await expect(handler(keyed(alice, 'k-1', { name: 'Tom', categoryId: 3 }))).rejects.toMatchObject({ status: 422 });

    clock.now = new Date(START.getTime() + DAY_SECONDS * 1000);
    const renewed = await handler(keyed(alice, 'k-1', { name: 'Tom', categoryId: 3 }));
    expect(renewed).toMatchObject({ recorded: { headers: { Location: '/v1/pets/2' } }, replayed: false });
    // The new record replaced the expired one, and is kept for a full period from now.
    clock.now = new Date(START.getTime() + 2 * DAY_SECONDS * 1000 - 1);
    expect(await handler(keyed(alice, 'k-1', { name: 'Tom', categoryId: 3 }))).toEqual({ ...renewed, replayed: true });
    expect(await storage.listPets({ limit: 10 })).toHaveLength(2);
  });

  it('stores neither pet nor record when rendering the response fails', async () => {
    const storage = await openTestStorage(backend);
    const alice = await principalOf(storage, 'alice');
    const handler = handlerAt(storage, { now: START });
    const failing = {
      ...keyed(alice, 'k-1', { name: 'Rex', categoryId: 3 }),
      render: () => {
        throw new Error('render failed');
      },
    };
    await expect(handler(failing)).rejects.toThrow('render failed');
    expect(await storage.listPets({ limit: 10 })).toEqual([]);
    expect(await handler(keyed(alice, 'k-1', { name: 'Tom', categoryId: 3 }))).toMatchObject({ replayed: false });
  });
});

describe('createPet handler [postgres]: a key still in flight', () => {
  it('answers 409 to a request whose key another transaction holds, and the replay once that one committed', async () => {
    const databaseUrl = await postgresBackend.createDatabaseUrl();
    const storage = await openStorage(databaseUrl);
    const blocker = new pg.Client(databaseUrl);
    await blocker.connect();
    try {
      const alice = await principalOf(storage, 'alice');
      const handler = handlerAt(storage, { now: START });
      // Holds the first request inside its transaction, after it took the key: its INSERT waits.
      await blocker.query('BEGIN');
      await blocker.query('LOCK TABLE pets IN SHARE MODE');
      const first = handler(keyed(alice, 'k-1', { name: 'Rex', categoryId: 3 }));
      await vi.waitFor(
        async () => {
          // Activity is read once per transaction; the blocker is in one, so it clears that snapshot.
          const [, { rows }] = (await blocker.query(
            "SELECT pg_stat_clear_snapshot(); SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND query LIKE '%INSERT INTO pets%'",
          )) as unknown as [pg.QueryResult, pg.QueryResult<{ waiting: number }>];
          expect(rows[0]!.waiting).toBe(1);
        },
        { timeout: 10_000, interval: 20 },
      );

      await expect(handler(keyed(alice, 'k-1', { name: 'Rex', categoryId: 3 }))).rejects.toMatchObject({
        code: 'idempotency_key_in_progress',
        status: 409,
      });
      await blocker.query('COMMIT');
      const created = await first;
      expect(created).toMatchObject({ replayed: false });
      expect(await handler(keyed(alice, 'k-1', { name: 'Rex', categoryId: 3 }))).toEqual({ ...created, replayed: true });
      expect(await storage.listPets({ limit: 10 })).toHaveLength(1);
    } finally {
      await blocker.end();
      await storage.close();
    }
  });
});
