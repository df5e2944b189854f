/** Runtime settings, all from the environment; README's configuration table lists them. */
export interface Config {
  host: string;
  port: number;
  databaseUrl: string;
  /** PostgreSQL connections per process. */
  databasePoolSize: number;
  /** How long a request waits for a new PostgreSQL connection before it is answered 503. */
  databaseConnectTimeoutMs: number;
  logLevel: string;
  /** How long the record of an Idempotency-Key is kept, from the first request. */
  idempotencyRetentionSeconds: number;
}

export const DEFAULT_DATABASE_URL = 'file:data/petstore.db';
/** 24 hours, as openapi.yaml's Idempotency-Key documents. */
export const DEFAULT_IDEMPOTENCY_RETENTION_SECONDS = 86_400;

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

function integerSetting(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const text = env[name];
  const value = text === undefined || text === '' ? fallback : Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be an integer from ${min} to ${max}, not ${JSON.stringify(text)}`);
  }
  return value;
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = integerSetting(env, 'PORT', 8080, 0, 65535);
  const logLevel = env['LOG_LEVEL'] ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return {
    host: env['HOST'] ?? '127.0.0.1',
    port,
    databaseUrl: env['DATABASE_URL'] || DEFAULT_DATABASE_URL,
    databasePoolSize: integerSetting(env, 'DATABASE_POOL_SIZE', 10, 1, 1000),
    databaseConnectTimeoutMs: integerSetting(env, 'DATABASE_CONNECT_TIMEOUT_MS', 2000, 100, 60_000),
    logLevel,
    // From a minute (shorter than a client's retries would defeat it) to 30 days.
    idempotencyRetentionSeconds: integerSetting(env, 'IDEMPOTENCY_RETENTION_SECONDS', DEFAULT_IDEMPOTENCY_RETENTION_SECONDS, 60, 2_592_000),
  };
}
