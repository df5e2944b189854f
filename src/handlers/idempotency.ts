import { createHash } from 'node:crypto';
import { apiError } from '../errors/api-error.js';
import type { IdempotencyRequest, IdempotentOutcome } from '../storage/idempotency.js';
import type { OperationId, RecordedResult } from './operation.js';

/**
 * The key an `Idempotency-Key` header names: the content of its RFC 8941 String form (`"…"`, with
 * `\"` and `\\` unescaped), or the bare form as it is. The spec's pattern has validated the header, so
 * `"abc"` and `abc` name the same key.
 */
export function idempotencyKeyOf(header: string): string {
  return header.startsWith('"') ? header.slice(1, -1).replace(/\\(["\\])/g, '$1') : header;
}

/**
 * JSON of a parsed value with object keys sorted by UTF-16 code units and no white space (RFC 8785's
 * ordering; numbers and strings as JSON.stringify writes them): equal values give equal text,
 * whatever the key order, escapes or spacing of the JSON that was sent.
 */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const object = value as Record<string, unknown>;
    const members = Object.keys(object)
      .filter((name) => object[name] !== undefined)
      .sort()
      .map((name) => `${JSON.stringify(name)}:${canonicalJson(object[name])}`);
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What a retry's body must match: the SHA-256 of the body's canonical JSON, base64url. */
export function requestFingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('base64url');
}

/**
 * What a generated create's retry must match: the SHA-256 of its operation's id, a line break and its
 * body's canonical JSON, base64url. With the operation in it, a key first used on another operation
 * (createPet's fingerprint is of its body alone, which never starts with an id) is refused, never replayed.
 */
export function operationFingerprint(operationId: OperationId, body: unknown): string {
  return createHash('sha256')
    .update(`${operationId}\n${canonicalJson(body)}`)
    .digest('base64url');
}

/** A generated create's Idempotency-Key, checked against its operation and body, kept for the retention from `now`. */
export function keyedRequest(
  operationId: OperationId,
  { header, body, accountId, now }: { header: string; body: unknown; accountId: number; now: Date },
  retentionSeconds: number,
): IdempotencyRequest {
  return {
    accountId,
    key: idempotencyKeyOf(header),
    fingerprint: operationFingerprint(operationId, body),
    now,
    expiresAt: new Date(now.getTime() + retentionSeconds * 1000),
  };
}

/** How a request with a key is answered: the recorded response (first or replayed) or the draft's error. */
export function answerOf<K extends OperationId>(outcome: IdempotentOutcome): RecordedResult<K> {
  switch (outcome.kind) {
    case 'created':
      return { recorded: outcome.response, replayed: false };
    case 'replayed':
      return { recorded: outcome.response, replayed: true };
    case 'key_reused':
      throw apiError('idempotency_key_reused');
    case 'in_progress':
      throw apiError('idempotency_key_in_progress');
  }
}
