import { describe, expect, it } from 'vitest';
import { expireAndWriteOnce, LEFT_AFTER_ONE_WRITE } from '../../support/idempotency.js';
import { openPostgres, sqlClient } from '../../support/postgres-storage.js';

describe('PostgreSQL Idempotency-Key records', () => {
  it('creates the pet with its record, then replays the record, or refuses another body, without creating again', async () => {
    const { storage } = await openPostgres();
    const { id: accountId } = await storage.ensureAccount('alice');
    const now = new Date('2030-01-01T00:00:00.000Z');
    const request = { accountId, key: 'k', fingerprint: 'f', now, expiresAt: new Date(now.getTime() + 60_000) };
    const respond = (pet: { id: number }) => ({ status: 201, headers: { Location: `/v1/pets/${pet.id}` }, body: Buffer.from('{"id":1}') });
    const created = await storage.createPetIdempotently({ name: 'Rex', categoryId: 3, status: 'sold' }, request, respond);
    expect(created).toEqual({ kind: 'created', response: respond({ id: 1 }) });
    const replayed = await storage.createPetIdempotently({ name: 'Rex', categoryId: 3, status: 'sold' }, request, respond);
    expect(replayed).toEqual({
      kind: 'replayed',
      response: { status: 201, headers: { Location: '/v1/pets/1' }, body: Buffer.from('{"id":1}') },
    });
    expect(await storage.createPetIdempotently({ name: 'Tom', categoryId: 3 }, { ...request, fingerprint: 'g' }, respond)).toEqual({
      kind: 'key_reused',
    });
    expect(await storage.listPets({ limit: 10 })).toEqual([{ id: 1, name: 'Rex', categoryId: 3, status: 'sold' }]);
  });

  it('clears a few expired idempotency records with each new one, never one that has not expired', async () => {
    const { storage, url } = await openPostgres();
    await expireAndWriteOnce(storage);
    const { rows } = await (await sqlClient(url)).query<{ key: string }>('SELECT key FROM idempotency_keys ORDER BY expires_at, key');
    expect(rows).toHaveLength(LEFT_AFTER_ONE_WRITE);
    expect(rows.slice(-4).map((row) => row.key)).toEqual(['late-0', 'late-1', 'late-2', 'new']);
  });
});
