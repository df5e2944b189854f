/** Runtime settings, all from the environment; README's configuration table lists them. */
export interface Config {
  host: string;
  port: number;
  databaseUrl: string;
  logLevel: string;
}

export const DEFAULT_DATABASE_URL = 'file:data/petstore.db';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = Number(env['PORT'] ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`PORT must be an integer from 0 to 65535, not ${JSON.stringify(env['PORT'])}`);
  }
  const logLevel = env['LOG_LEVEL'] ?? 'info';
  if (!LOG_LEVELS.includes(logLevel)) throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  return {
    host: env['HOST'] ?? '127.0.0.1',
    port,
    databaseUrl: env['DATABASE_URL'] || DEFAULT_DATABASE_URL,
    logLevel,
  };
}
