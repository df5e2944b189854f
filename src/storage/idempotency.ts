/** A response as the server sends it, byte for byte: what an Idempotency-Key's record keeps to send again. */
export interface RecordedResponse {
  readonly status: number;
  /** The headers the operation set (Location, ...); the server adds its own to every response. */
  readonly headers: Readonly<Record<string, string>>;
  /** The JSON body exactly as sent (UTF-8); empty when the response has none. */
  readonly body: Uint8Array;
}

/** The Idempotency-Key of a request, and what its record is checked against and kept for. */
export interface IdempotencyRequest {
  accountId: number;
  /** The key as the client chose it (unquoted); keys are per account. */
  key: string;
  /** Of the request body (its canonical JSON): a retry must have the same. */
  fingerprint: string;
  /** The request's instant: a record that expires at or before it counts as absent. */
  now: Date;
  /** Until when the record of a new request is kept. */
  expiresAt: Date;
}

/** What came of a request with an Idempotency-Key. */
export type IdempotentOutcome =
  /** Nothing unexpired had the key: created now, recorded with its response. */
  | { kind: 'created'; response: RecordedResponse }
  /** The key's record, with the same fingerprint: nothing was created. */
  | { kind: 'replayed'; response: RecordedResponse }
  /** The key's record has another fingerprint: nothing was created. */
  | { kind: 'key_reused' }
  /** Another request with the key is still being processed (PostgreSQL): nothing was created. */
  | { kind: 'in_progress' };
