import { createHash } from 'node:crypto';
import type { IdempotencyRequest, RecordedResponse } from '../idempotency.js';
import type { IdempotentRowOutcome, StoredRow } from '../resources.js';
import { headersToColumn, outcomeOfRecord, type IdempotencyRow } from '../rows.js';
import type { StoredTable } from '../stored-tables.js';
import type { Queries, Session } from './queries.js';
import { codecFor, POSTGRES_CODEC } from '../column-codec.js';
import { insertRefusal, insertStatement } from './resources.js';
import { IDEMPOTENCY_RECORD, PUT_IDEMPOTENCY_RECORD } from './statements.js';

/**
 * The advisory lock of an account's key: 64 bits of SHA-256, as an int8 literal (digits only, so it
 * can travel with BEGIN in one simple query). A collision only makes two keys wait for each other.
 */
export function advisoryLockKey(accountId: number, key: string): string {
  return createHash('sha256').update(`${accountId}:${key}`).digest().readBigInt64BE(0).toString();
}

/** The opening of a keyed create's transaction: the try-lock of its account and key. */
export function tryLock({ accountId, key }: IdempotencyRequest): string {
  return `SELECT pg_try_advisory_xact_lock(${advisoryLockKey(accountId, key)}) AS locked`;
}

/** Records the response of a keyed create, in its transaction. */
export async function putRecord(session: Session, idempotency: IdempotencyRequest, response: RecordedResponse): Promise<RecordedResponse> {
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
 * A generated resource's insert under an Idempotency-Key: the lock of tryLock, then the record in a
 * statement of its own, the row, and its record. A reference that names no row
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
