/** Up to `points` per key in fixed windows of `durationSeconds`, counted under `keyPrefix`. */
export interface QuotaPolicy {
  keyPrefix: string;
  points: number;
  durationSeconds: number;
}

/** A key's count in its current window, once an add is counted. */
export interface QuotaCount {
  /** Points counted in the window, this add's included: past the policy's points once the quota is used up. */
  counted: number;
  /** Milliseconds until the window ends. */
  msBeforeReset: number;
}

/** Counts points per key in the windows of one policy. */
export interface QuotaCounter {
  /** Adds `points` to the key's count, however far past the quota that takes it, and returns the count. */
  add(key: string, points: number): Promise<QuotaCount>;
}

/** Where a deployment's processes count quotas together (the HTTP layer's rate limits). */
export interface QuotaStore {
  /**
   * A counter whose counts every process on this store shares (PostgreSQL: a table), or undefined
   * where the store keeps none (SQLite serves one host: each process counts in its memory).
   */
  sharedQuotaCounter(policy: QuotaPolicy): QuotaCounter | undefined;
}
