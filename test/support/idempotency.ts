import { EXPIRED_RECORDS_PER_WRITE } from '../../src/storage/rows.js';
import type { IdempotentOutcome, Storage } from '../../src/storage/storage.js';
import { renderAsJson } from './operation-request.js';

const HOUR_MS = 3_600_000;
export const T0 = new Date('2030-01-01T00:00:00.000Z');
export const at = (ms: number) => new Date(T0.getTime() + ms);

/** Creates a pet under each key, at `now`, recorded until `expiresAt`. */
export async function createKeyed(
  storage: Storage,
  accountId: number,
  keys: string[],
  now: Date,
  expiresAt: Date,
): Promise<IdempotentOutcome[]> {
  const outcomes: IdempotentOutcome[] = [];
  for (const key of keys) {
    outcomes.push(
      await storage.createPetIdempotently({ name: key, categoryId: 1 }, { accountId, key, fingerprint: key, now, expiresAt }, (pet) =>
        renderAsJson({ status: 201, body: pet, headers: { Location: `/v1/pets/${pet.id}` } }),
      ),
    );
  }
  return outcomes;
}

/**
 * Ten records that expire after an hour and three after two hours, then one more once the first ten
 * have expired: the keys of the records left, in order, are what a backend's clean-up left.
 */
export async function expireAndWriteOnce(storage: Storage): Promise<void> {
  const { id } = await storage.ensureAccount('alice');
  const early = Array.from({ length: 10 }, (_, i) => `early-${i}`);
  await createKeyed(storage, id, early, T0, at(HOUR_MS));
  await createKeyed(storage, id, ['late-0', 'late-1', 'late-2'], at(HOUR_MS / 2), at(2 * HOUR_MS));
  await createKeyed(storage, id, ['new'], at(HOUR_MS), at(3 * HOUR_MS));
}

/** What expireAndWriteOnce leaves: all but EXPIRED_RECORDS_PER_WRITE of the expired ones, and every unexpired one. */
export const LEFT_AFTER_ONE_WRITE = 10 - EXPIRED_RECORDS_PER_WRITE + 4;
