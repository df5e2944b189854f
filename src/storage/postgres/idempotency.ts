import { createHash } from 'node:crypto';
import type { IdempotencyRequest, IdempotentOutcome, RecordedResponse } from '../idempotency.js';
import { newPetValues, petFromRow, type PetRow } from '../pet-table.js';
import type { NewPet, Pet } from '../pets.js';
import type { IdempotentRowOutcome, StoredRow } from '../resources.js';
import { headersToColumn, outcomeOfRecord, type IdempotencyRow } from '../rows.js';
import type { StoredTable } from '../stored-tables.js';
import type { Queries, Session } from './queries.js';
import { codecFor, POSTGRES_CODEC } from '../column-codec.js';
import { insertRefusal, insertStatement } from './resources.js';
import { IDEMPOTENCY_RECORD, PUT_IDEMPOTENCY_RECORD, RECORD_OR_NEW_PET } from './statements.js';

/**
 * The advisory lock of an account's key: 64 bits of SHA-256, as an int8 literal (digits only, so it
 * can travel with BEGIN in one simple query). A collision only makes two keys wait for each other.
 */
export function advisoryLockKey(accountId: number, key: string): string {
  return createHash('sha256').update(`${accountId}:${key}`).digest().readBigInt64BE(0).toString();
}

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

/** The opening of a keyed create's transaction: the try-lock of its account and key. */
function tryLock({ accountId, key }: IdempotencyRequest): string {
  return `SELECT pg_try_advisory_xact_lock(${advisoryLockKey(accountId, key)}) AS locked`;
}

/** Records the response of a keyed create, in its transaction. */
async function putRecord(session: Session, idempotency: IdempotencyRequest, response: RecordedResponse): Promise<RecordedResponse> {
  const { accountId, key, fingerprint, now, expiresAt } = idempotency;
  await session.rows(PUT_IDEMPOTENCY_RECORD, [
    accountId,
    key,
    fingerprint,
    response.status,
    headersToColumn(response),
    response.body,
    now,
    expiresAt,
  ]);
  return response;
}

/**
 * A generated resource's insert under an Idempotency-Key, as createPetIdempotently: the same lock,
 * then the record in a statement of its own, the row, and its record. A reference that names no row
 * fails the insert, and so the transaction: it is rolled back and nothing is recorded.
 */
export async function insertRowIdempotently<Row extends StoredRow>(
  queries: Queries,
  table: StoredTable,
  values: readonly unknown[],
  idempotency: IdempotencyRequest,
  respond: (row: Row) => RecordedResponse,
): Promise<IdempotentRowOutcome> {
  const { accountId, key, fingerprint, now } = idempotency;
  try {
    return await queries.transaction<IdempotentRowOutcome, { locked: boolean }>(tryLock(idempotency), async (session, [lock]) => {
      if (!lock!.locked) return { kind: 'in_progress' };
      const [record] = await session.rows<IdempotencyRow>(IDEMPOTENCY_RECORD, [accountId, key, now]);
      if (record) return outcomeOfRecord(record, fingerprint);
      const codec = codecFor(table, POSTGRES_CODEC);
      const [row] = await session.arrays<Row>(insertStatement(table), [...codec.written(values)]);
      return { kind: 'created', response: await putRecord(session, idempotency, respond(codec.row(row!))) };
    });
  } catch (error) {
    const refusal = insertRefusal(table, error);
    if (!refusal) throw error;
    return refusal;
  }
}
