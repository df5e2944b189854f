/** Runtime settings, all from the environment, read and checked here once; README's configuration table lists them. */
export interface Config {
  host: string;
  port: number;
  databaseUrl: string;
  /** PostgreSQL connections per process. */
  databasePoolSize: number;
  /** How long a request waits for a new PostgreSQL connection before it is answered 503. */
  databaseConnectTimeoutMs: number;
  logLevel: string;
  /** How long a client may take to send a request's headers before it is answered 408. */
  headersTimeoutMs: number;
  /** How long a client may take to send a whole request, body included, before it is answered 408. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open between requests. */
  keepAliveTimeoutMs: number;
  /** After SIGTERM/SIGINT: how long the server keeps serving (readiness already failing) before it stops accepting. */
  shutdownDrainMs: number;
  /** After SIGTERM/SIGINT: when the process exits (0) whatever its clients do; counted from the signal. */
  shutdownTimeoutMs: number;
  /** How long the record of an Idempotency-Key is kept, from the first request. */
  idempotencyRetentionSeconds: number;
}

export const DEFAULT_DATABASE_URL = 'file:data/petstore.db';
/** 24 hours, as openapi.yaml's Idempotency-Key documents. */
export const DEFAULT_IDEMPOTENCY_RETENTION_SECONDS = 86_400;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** Whole numbers in plain decimal only: `1e3`, `0x10`, ` 10` or `10.0` are mistakes to report, not to guess at. */
const DECIMAL = /^(0|[1-9][0-9]*)$/;

function integerSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const text = env[name];
  const value = text === undefined || text === '' ? fallback : DECIMAL.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, not ${JSON.stringify(text)}`);
  }
  return value;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integerSetting(env, 'PORT', 8080, 0, 65535);
  const logLevel = env['LOG_LEVEL'] || 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const headersTimeoutMs = integerSetting(env, 'HEADERS_TIMEOUT_MS', 10_000, 100, 600_000);
  const requestTimeoutMs = integerSetting(env, 'REQUEST_TIMEOUT_MS', 30_000, 100, 3_600_000);
  // Node's own rule: a request cannot have less time for all of it than for its headers.
  if (headersTimeoutMs > requestTimeoutMs) {
    throw new Error(`HEADERS_TIMEOUT_MS (${headersTimeoutMs}) must not exceed REQUEST_TIMEOUT_MS (${requestTimeoutMs})`);
  }
  const shutdownDrainMs = integerSetting(env, 'SHUTDOWN_DRAIN_MS', 5_000, 0, 600_000);
  const shutdownTimeoutMs = integerSetting(env, 'SHUTDOWN_TIMEOUT_MS', 20_000, 100, 3_600_000);
  if (shutdownDrainMs >= shutdownTimeoutMs) {
    throw new Error(`SHUTDOWN_DRAIN_MS (${shutdownDrainMs}) must be less than SHUTDOWN_TIMEOUT_MS (${shutdownTimeoutMs})`);
  }
  return {
    host: env['HOST'] || '127.0.0.1',
    port,
    databaseUrl: env['DATABASE_URL'] || DEFAULT_DATABASE_URL,
    databasePoolSize: integerSetting(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    databaseConnectTimeoutMs: integerSetting(env, 'DATABASE_CONNECT_TIMEOUT_MS', 2000, 100, 60_000),
    logLevel,
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: integerSetting(env, 'KEEP_ALIVE_TIMEOUT_MS', 65_000, 0, 3_600_000),
    shutdownDrainMs,
    shutdownTimeoutMs,
    // From a minute (shorter than a client's retries would defeat it) to 30 days.
    idempotencyRetentionSeconds: integerSetting(env, 'IDEMPOTENCY_RETENTION_SECONDS', DEFAULT_IDEMPOTENCY_RETENTION_SECONDS, 60, 2_592_000),
  };
}
