import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry, type Metric } from 'prom-client';
import type { ErrorCode } from '../contract/error-codes.js';
import type { PoolStats, StorageMetrics } from '../storage/storage.js';
import { RequestDurationHistogram } from './request-histogram.js';

/** What the HTTP layer reports: one observation per request, one count per Error object written. */
export interface HttpMetrics {
  /**
   * A request answered (or abandoned by its client). `method` as it arrived, `route` the path
   * template it matched (or a fixed value for none), `status` the status sent.
   */
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** An Error object was sent, by the app or below it (parser errors, timeouts, shutdown). */
  countError(code: ErrorCode): void;
}

/**
 * The methods OpenTelemetry's HTTP semantic conventions name (RFC 9110 and PATCH); any other is
 * reported as `_OTHER`, so a client cannot mint label values.
 */
const KNOWN_METHODS = new Set(['CONNECT', 'DELETE', 'GET', 'HEAD', 'OPTIONS', 'PATCH', 'POST', 'PUT', 'TRACE']);

/** Commits: on SQLite mostly the fsync that synchronous=FULL waits for, so from a fraction of a millisecond up. */
const COMMIT_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];
/** Writes per batch: one when requests come one at a time, up to the concurrency of the clients. */
const BATCH_BUCKETS = [1, 2, 4, 8, 16, 32, 64, 128, 256];

export interface MetricsOptions {
  /** Node's process and runtime metrics (prom-client's default metrics); on in production. */
  processMetrics?: boolean;
}

/**
 * Every metric of one server, in one prom-client Registry that the metrics listener serves
 * (src/metrics/metrics-server.ts). Names follow OpenTelemetry's semantic conventions where they
 * have one (HTTP server, database client connections).
 */
export class Metrics implements HttpMetrics {
  readonly registry = new Registry();
  readonly storage: StorageMetrics;
  private readonly requestDuration = new RequestDurationHistogram();
  private readonly errorResponses: Counter<'code'>;

  constructor({ processMetrics = true }: MetricsOptions = {}) {
    if (processMetrics) collectDefaultMetrics({ register: this.registry });
    this.registry.registerMetric(this.requestDuration as unknown as Metric);
    this.errorResponses = new Counter({
      name: 'http_server_error_responses_total',
      help: 'Error objects sent, by their code (components.schemas.ErrorCode in openapi.yaml).',
      labelNames: ['code'],
      registers: [this.registry],
    });
    this.storage = this.storageMetrics();
  }

  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.requestDuration.observe(KNOWN_METHODS.has(method) ? method : '_OTHER', route, status, seconds);
  }

  countError(code: ErrorCode): void {
    this.errorResponses.inc({ code });
  }

  private storageMetrics(): StorageMetrics {
    const registers = [this.registry];
    let commits: { duration: Histogram; writes: Histogram } | undefined;
    return {
      observeCommit: (writes, seconds) => {
        // Registered on the first commit: a server that has written nothing has none to show.
        commits ??= {
          duration: new Histogram({
            name: 'db_client_commit_duration_seconds',
            help: 'Batches of writes committed together (group commit), from the start of their transaction to its commit returning (the fsync included).',
            buckets: COMMIT_BUCKETS,
            registers,
          }),
          writes: new Histogram({
            name: 'db_client_commit_writes',
            help: 'Writes per batch committed together (group commit): how many requests shared one commit.',
            buckets: BATCH_BUCKETS,
            registers,
          }),
        };
        commits.duration.observe(seconds);
        commits.writes.observe(writes);
      },
      observePool: (read: () => PoolStats) => {
        new Gauge({
          name: 'db_client_connection_count',
          help: 'PostgreSQL connections of this process, by state: used (by a query or transaction) or idle.',
          labelNames: ['db_client_connection_state'],
          registers,
          collect() {
            const { total, idle } = read();
            this.set({ db_client_connection_state: 'used' }, total - idle);
            this.set({ db_client_connection_state: 'idle' }, idle);
          },
        });
        new Gauge({
          name: 'db_client_connection_pending_requests',
          help: 'Queries waiting for a PostgreSQL connection of this process.',
          registers,
          collect() {
            this.set(read().waiting);
          },
        });
        new Gauge({
          name: 'db_client_connection_max',
          help: 'The most PostgreSQL connections this process opens (DATABASE_POOL_SIZE).',
          registers,
          collect() {
            this.set(read().max);
          },
        });
      },
    };
  }
}
