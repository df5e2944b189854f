import { expect } from 'vitest';
import { FIRST_PET_VERSION } from '../../src/storage/pets/pets.js';
import type { Storage } from '../../src/storage/storage.js';

/**
 * Rows as release 1.1.0 wrote them (its schema: the migrations before `pet versions`), for a test
 * that opens such a store with this version. `bytes` is the backend's literal of the bytes `{}`.
 */
export function rowsOf110(bytes: string): string {
  return `
    INSERT INTO pets (name, category_id, status) VALUES ('Rex', 3, 'available'), ('Tom', 4, NULL);
    INSERT INTO accounts (name) VALUES ('old');
    INSERT INTO api_keys (account_id, key_hash, display_prefix) VALUES (1, 'hash', 'psk_abc');
    INSERT INTO idempotency_keys VALUES
      (1, 'k', 'f', 201, '{"Location":"/v1/pets/2"}', ${bytes}, '2030-01-01T00:00:00Z', '2099-01-01T00:00:00Z');
  `;
}

/** The index of the first migration after 1.1.0 in a backend's list. */
export function firstAfter110(migrations: ReadonlyArray<{ name: string }>): number {
  return migrations.findIndex(({ name }) => name === 'pet versions');
}

/** Everything rowsOf110 wrote is there, each pet now has a version (so an ETag), and the store works on. */
export async function expectKeptAndVersioned(storage: Storage): Promise<void> {
  expect(await storage.listPets({ limit: 10 })).toEqual([
    { id: 1, name: 'Rex', categoryId: 3, status: 'available' },
    { id: 2, name: 'Tom', categoryId: 4 },
  ]);
  expect(await storage.getPet(2)).toEqual({ pet: { id: 2, name: 'Tom', categoryId: 4 }, version: FIRST_PET_VERSION });
  expect(await storage.findActiveApiKey('hash')).toEqual({ keyId: 1, accountId: 1, accountName: 'old' });
  const replay = await storage.createPetIdempotently(
    { name: 'Tom', categoryId: 4 },
    { accountId: 1, key: 'k', fingerprint: 'f', now: new Date('2030-01-02T00:00:00Z'), expiresAt: new Date('2030-01-03T00:00:00Z') },
    () => ({ status: 201, headers: {}, body: new Uint8Array() }),
  );
  expect(replay).toMatchObject({ kind: 'replayed', response: { status: 201, headers: { Location: '/v1/pets/2' } } });
  expect(await storage.updatePet(1, { status: 'sold' }, [FIRST_PET_VERSION])).toEqual({
    kind: 'updated',
    pet: { pet: { id: 1, name: 'Rex', categoryId: 3, status: 'sold' }, version: FIRST_PET_VERSION + 1 },
  });
  expect((await storage.createPet({ name: 'Kit', categoryId: 5 })).id).toBe(3);
}
