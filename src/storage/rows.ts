import type { ApiKeyRecord, Principal } from './api-keys.js';
import type { IdempotentOutcome, RecordedResponse } from './idempotency.js';

/**
 * The rows of keys and Idempotency-Key records, as both backends read them: objects with snake_case
 * columns, timestamps as RFC 3339 strings in UTC. (Pets are read as arrays: pet-table.ts.)
 */
export interface ApiKeyRow {
  id: number;
  account_id: number;
  account_name: string;
  display_prefix: string;
  created_at: string;
  revoked_at: string | null;
}

export function apiKeyFromRow(row: ApiKeyRow): ApiKeyRecord {
  return {
    id: row.id,
    accountId: row.account_id,
    accountName: row.account_name,
    displayPrefix: row.display_prefix,
    createdAt: row.created_at,
    revokedAt: row.revoked_at,
  };
}

export interface PrincipalRow {
  key_id: number;
  account_id: number;
  account_name: string;
}

export function principalFromRow(row: PrincipalRow): Principal {
  return { keyId: row.key_id, accountId: row.account_id, accountName: row.account_name };
}

/** An unexpired Idempotency-Key record, as both backends read it. */
export interface IdempotencyRow {
  fingerprint: string;
  status: number;
  /** A JSON object of header names and values. */
  headers: string;
  body: Uint8Array;
}

export function headersToColumn(response: RecordedResponse): string {
  return JSON.stringify(response.headers);
}

/** A record met again: its response when the request is the same, a refusal when it is not. */
export function outcomeOfRecord(row: IdempotencyRow, fingerprint: string): IdempotentOutcome {
  if (row.fingerprint !== fingerprint) return { kind: 'key_reused' };
  return { kind: 'replayed', response: { status: row.status, headers: JSON.parse(row.headers) as Record<string, string>, body: row.body } };
}

/**
 * How many expired Idempotency-Key records each new record clears away: more than one, so the
 * expired rows shrink while keyed requests come in, and few, so no request pays for a sweep.
 */
export const EXPIRED_RECORDS_PER_WRITE = 8;
