import { isIP } from 'node:net';
import { storageKindOf } from './storage/open-storage.js';

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
  /** JSON lines (production), or pino-pretty's human-readable lines (development). */
  logFormat: LogFormat;
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
  /** Where Prometheus scrapes the metrics (on HOST); 0: no metrics at all. */
  metricsPort: number;
  /** Requests one API key may make per minute; 0: unlimited. */
  rateLimitPerMinute: number;
  /** Failed authentications one client address may cause per minute; 0: unlimited. */
  failedAuthPerMinute: number;
  /** How many proxies in front of the server append to X-Forwarded-For; 0: the client is the socket's peer. */
  trustProxyHops: number;
  /** Every handler's answer checked against openapi.yaml before it is sent (npm run dev sets it); never in production. */
  checkResponses: boolean;
}

export type LogFormat = 'json' | 'pretty';

const DEFAULT_DATABASE_URL = 'file:data/petstore.db';
/** 24 hours, as openapi.yaml's Idempotency-Key documents. */
export const DEFAULT_IDEMPOTENCY_RETENTION_SECONDS = 86_400;
/** The port Prometheus exporters conventionally use (as OpenTelemetry's Prometheus exporter does). */
const DEFAULT_METRICS_PORT = 9464;
const DEFAULT_RATE_LIMIT_PER_MINUTE = 600;
const DEFAULT_FAILED_AUTH_PER_MINUTE = 30;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const LOG_FORMATS: readonly LogFormat[] = ['json', 'pretty'];
const SWITCH = ['off', 'on'] as const;

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

function choiceSetting<T extends string>(env: NodeJS.ProcessEnv, name: string, fallback: T, choices: readonly T[]): T {
  const text = env[name] || fallback;
  if (!choices.includes(text as T)) throw new Error(`${name} must be one of ${choices.join(', ')}, not ${JSON.stringify(text)}`);
  return text as T;
}

/** An IP address, or a host name to resolve (`localhost`); anything else would fail only at listen(). */
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*$/;

function hostSetting(env: NodeJS.ProcessEnv): string {
  const host = env['HOST'] || '127.0.0.1';
  if (isIP(host) === 0 && !HOST_NAME.test(host)) throw new Error(`HOST must be an IP address or a host name, not ${JSON.stringify(host)}`);
  return host;
}

function databaseUrlSetting(env: NodeJS.ProcessEnv): string {
  const databaseUrl = env['DATABASE_URL'] || DEFAULT_DATABASE_URL;
  // Throws a message that names DATABASE_URL and the schemes there are (never the rest of the URL).
  storageKindOf(databaseUrl);
  return databaseUrl;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integerSetting(env, 'PORT', 8080, 0, 65535);
  const logLevel = choiceSetting(env, 'LOG_LEVEL', 'info', LOG_LEVELS);
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
  const metricsPort = integerSetting(env, 'METRICS_PORT', DEFAULT_METRICS_PORT, 0, 65535);
  // Metrics are never served on the public port.
  if (metricsPort !== 0 && metricsPort === port) {
    throw new Error(`METRICS_PORT (${metricsPort}) must differ from PORT: metrics are not served on the API's port`);
  }
  return {
    host: hostSetting(env),
    port,
    databaseUrl: databaseUrlSetting(env),
    databasePoolSize: integerSetting(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    databaseConnectTimeoutMs: integerSetting(env, 'DATABASE_CONNECT_TIMEOUT_MS', 2000, 100, 60_000),
    logLevel,
    logFormat: choiceSetting(env, 'LOG_FORMAT', 'json', LOG_FORMATS),
    headersTimeoutMs,
    requestTimeoutMs,
    keepAliveTimeoutMs: integerSetting(env, 'KEEP_ALIVE_TIMEOUT_MS', 65_000, 0, 3_600_000),
    shutdownDrainMs,
    shutdownTimeoutMs,
    // From a minute (shorter than a client's retries would defeat it) to 30 days.
    idempotencyRetentionSeconds: integerSetting(env, 'IDEMPOTENCY_RETENTION_SECONDS', DEFAULT_IDEMPOTENCY_RETENTION_SECONDS, 60, 2_592_000),
    metricsPort,
    rateLimitPerMinute: integerSetting(env, 'RATE_LIMIT_PER_MINUTE', DEFAULT_RATE_LIMIT_PER_MINUTE, 0, 10_000_000),
    failedAuthPerMinute: integerSetting(env, 'FAILED_AUTH_PER_MINUTE', DEFAULT_FAILED_AUTH_PER_MINUTE, 0, 1_000_000),
    // More hops than any real chain of proxies is a typo.
    trustProxyHops: integerSetting(env, 'TRUST_PROXY_HOPS', 0, 0, 10),
    checkResponses: choiceSetting(env, 'CHECK_RESPONSES', 'off', SWITCH) === 'on',
  };
}
