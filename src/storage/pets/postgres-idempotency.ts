import type { IdempotencyRequest, IdempotentOutcome, RecordedResponse } from '../idempotency.js';
import { putRecord, tryLock } from '../postgres/idempotency.js';
import type { Queries } from '../postgres/queries.js';
import { outcomeOfRecord } from '../rows.js';
import { newPetValues, petFromRow, type PetRow } from './pet-table.js';
import type { NewPet, Pet } from './pets.js';
import { RECORD_OR_NEW_PET } from './postgres-statements.js';

/** A row of RECORD_OR_NEW_PET: the record's columns, then the new pet's (a PetRow); the part not there is nulls. */
type RecordOrPetRow = [
  fingerprint: string | null,
  status: number | null,
  headers: string | null,
  body: Uint8Array | null,
  ...pet: unknown[],
];

/**
 * One transaction that first takes a transaction-scoped advisory lock on the account and key, with
 * try-lock: a request that finds the key locked is another one with the same key still in flight,
 * in this process or any other, and gets 409 at once instead of waiting for it (the draft's
 * answer). The holder reads the record only after taking the lock, in a statement of its own, so it
 * sees any commit of an earlier holder (PostgreSQL releases the lock after the commit is visible):
 * a retry after the first request finished replays it, and the pet and the record commit together
 * or not at all. The primary key on (account_id, key) backs this up. Four round trips: BEGIN with
 * the lock, the record or else the new pet, the record of the new pet, COMMIT.
 */
export function createPetIdempotently(
  queries: Queries,
  pet: NewPet,
  idempotency: IdempotencyRequest,
  respond: (pet: Pet) => RecordedResponse,
): Promise<IdempotentOutcome> {
  const { accountId, key, fingerprint, now } = idempotency;
  return queries.transaction<IdempotentOutcome, { locked: boolean }>(tryLock(idempotency), async (session, [lock]) => {
    if (!lock!.locked) return { kind: 'in_progress' };
    const [found] = await session.arrays<RecordOrPetRow>(RECORD_OR_NEW_PET, [accountId, key, now, ...newPetValues(pet)]);
    const [recordFingerprint, status, headers, body, ...created] = found!;
    if (recordFingerprint !== null) {
      return outcomeOfRecord({ fingerprint: recordFingerprint, status: status!, headers: headers!, body: body! }, fingerprint);
    }
    return { kind: 'created', response: await putRecord(session, idempotency, respond(petFromRow(created as PetRow))) };
  });
}
