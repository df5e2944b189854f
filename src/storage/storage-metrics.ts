/** How many writes a batch committed, and how long its transaction took, commit (fsync) included. */
export type CommitObserver = (writes: number, seconds: number) => void;

/** The PostgreSQL pool's connections, as pg counts them. */
export interface PoolStats {
  /** Open connections, in use or idle. */
  total: number;
  idle: number;
  /** Requests queued for a connection. */
  waiting: number;
  /** The most the pool opens. */
  max: number;
}

/**
 * What a backend reports, each what applies to it. One object, so that whoever changes how a backend
 * writes (batching, group commit) keeps the measurements in one place.
 */
export interface StorageMetrics {
  /**
   * A batch of writes committed together (group commit: every write on SQLite, creates without a key
   * on PostgreSQL): how many, and seconds from the batch's start to its commit's return.
   */
  observeCommit: CommitObserver;
  /** The connection pool (PostgreSQL), read at every scrape. */
  observePool(read: () => PoolStats): void;
}
