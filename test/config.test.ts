import { describe, expect, it } from 'vitest';
import { readConfig } from '../src/config.js';

describe('configuration', () => {
  it('has documented defaults', () => {
    expect(readConfig({})).toEqual({
      host: '127.0.0.1',
      port: 8080,
      databaseUrl: 'file:data/petstore.db',
      databasePoolSize: 10,
      databaseConnectTimeoutMs: 2000,
      logLevel: 'info',
      logFormat: 'json',
      headersTimeoutMs: 10_000,
      requestTimeoutMs: 30_000,
      keepAliveTimeoutMs: 65_000,
      shutdownDrainMs: 5_000,
      shutdownTimeoutMs: 20_000,
      idempotencyRetentionSeconds: 86_400,
      metricsPort: 9464,
      rateLimitPerMinute: 600,
      failedAuthPerMinute: 30,
      trustProxyHops: 0,
      checkResponses: false,
    });
  });

  it('reads every setting from the environment', () => {
    expect(
      readConfig({
        HOST: '0.0.0.0',
        PORT: '9000',
        DATABASE_URL: 'postgres://db/pets',
        DATABASE_POOL_SIZE: '25',
        DATABASE_CONNECT_TIMEOUT_MS: '500',
        LOG_LEVEL: 'warn',
        LOG_FORMAT: 'pretty',
        HEADERS_TIMEOUT_MS: '2000',
        REQUEST_TIMEOUT_MS: '4000',
        KEEP_ALIVE_TIMEOUT_MS: '0',
        SHUTDOWN_DRAIN_MS: '0',
        SHUTDOWN_TIMEOUT_MS: '1000',
        IDEMPOTENCY_RETENTION_SECONDS: '3600',
        METRICS_PORT: '0',
        RATE_LIMIT_PER_MINUTE: '0',
        FAILED_AUTH_PER_MINUTE: '5',
        TRUST_PROXY_HOPS: '2',
        CHECK_RESPONSES: 'on',
      }),
    ).toEqual({
      host: '0.0.0.0',
      port: 9000,
      databaseUrl: 'postgres://db/pets',
      databasePoolSize: 25,
      databaseConnectTimeoutMs: 500,
      logLevel: 'warn',
      logFormat: 'pretty',
      headersTimeoutMs: 2000,
      requestTimeoutMs: 4000,
      keepAliveTimeoutMs: 0,
      shutdownDrainMs: 0,
      shutdownTimeoutMs: 1000,
      idempotencyRetentionSeconds: 3600,
      metricsPort: 0,
      rateLimitPerMinute: 0,
      failedAuthPerMinute: 5,
      trustProxyHops: 2,
      checkResponses: true,
    });
  });

  it.each(['localhost', '::1', '192.168.0.10', 'api-1.internal', 'fe80::1'])('takes HOST %s', (host) => {
    expect(readConfig({ HOST: host }).host).toBe(host);
  });

  it('takes the API and the metrics on any two ports, the API alone on 0', () => {
    expect(readConfig({ PORT: '0', METRICS_PORT: '0' })).toMatchObject({ port: 0, metricsPort: 0 });
    expect(readConfig({ PORT: '8081', METRICS_PORT: '9465' })).toMatchObject({ port: 8081, metricsPort: 9465 });
  });

  it.each([
    [{ PORT: 'http' }, 'PORT must be an integer from 0 to 65535, not "http"'],
    [{ PORT: '70000' }, 'PORT must be an integer from 0 to 65535, not "70000"'],
    [{ DATABASE_POOL_SIZE: '0' }, 'DATABASE_POOL_SIZE must be an integer from 1 to 1000, not "0"'],
    [{ DATABASE_CONNECT_TIMEOUT_MS: '1.5' }, 'DATABASE_CONNECT_TIMEOUT_MS must be an integer from 100 to 60000, not "1.5"'],
    [{ IDEMPOTENCY_RETENTION_SECONDS: '59' }, 'IDEMPOTENCY_RETENTION_SECONDS must be an integer from 60 to 2592000, not "59"'],
    [{ IDEMPOTENCY_RETENTION_SECONDS: '2592001' }, 'IDEMPOTENCY_RETENTION_SECONDS must be an integer from 60 to 2592000, not "2592001"'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent, not "loud"'],
    [{ LOG_FORMAT: 'text' }, 'LOG_FORMAT must be one of json, pretty, not "text"'],
    [{ PORT: '0x50' }, 'PORT must be an integer from 0 to 65535, not "0x50"'],
    [{ PORT: ' 80' }, 'PORT must be an integer from 0 to 65535, not " 80"'],
    [{ PORT: '8e1' }, 'PORT must be an integer from 0 to 65535, not "8e1"'],
    [{ HEADERS_TIMEOUT_MS: '50' }, 'HEADERS_TIMEOUT_MS must be an integer from 100 to 600000, not "50"'],
    [{ HEADERS_TIMEOUT_MS: '5000', REQUEST_TIMEOUT_MS: '1000' }, 'HEADERS_TIMEOUT_MS (5000) must not exceed REQUEST_TIMEOUT_MS (1000)'],
    [{ SHUTDOWN_DRAIN_MS: '30000' }, 'SHUTDOWN_DRAIN_MS (30000) must be less than SHUTDOWN_TIMEOUT_MS (20000)'],
    [{ METRICS_PORT: '65536' }, 'METRICS_PORT must be an integer from 0 to 65535, not "65536"'],
    [{ METRICS_PORT: '-1' }, 'METRICS_PORT must be an integer from 0 to 65535, not "-1"'],
    [{ METRICS_PORT: '8080' }, 'METRICS_PORT (8080) must differ from PORT'],
    [{ PORT: '9464' }, 'METRICS_PORT (9464) must differ from PORT'],
    [{ RATE_LIMIT_PER_MINUTE: '10000001' }, 'RATE_LIMIT_PER_MINUTE must be an integer from 0 to 10000000, not "10000001"'],
    [{ RATE_LIMIT_PER_MINUTE: 'off' }, 'RATE_LIMIT_PER_MINUTE must be an integer from 0 to 10000000, not "off"'],
    [{ FAILED_AUTH_PER_MINUTE: '1.0' }, 'FAILED_AUTH_PER_MINUTE must be an integer from 0 to 1000000, not "1.0"'],
    [{ TRUST_PROXY_HOPS: 'true' }, 'TRUST_PROXY_HOPS must be an integer from 0 to 10, not "true"'],
    [{ TRUST_PROXY_HOPS: '11' }, 'TRUST_PROXY_HOPS must be an integer from 0 to 10, not "11"'],
    [{ HOST: 'http://0.0.0.0' }, 'HOST must be an IP address or a host name, not "http://0.0.0.0"'],
    [{ HOST: '0.0.0.0:80' }, 'HOST must be an IP address or a host name, not "0.0.0.0:80"'],
    [{ DATABASE_URL: 'mysql://db/pets' }, 'DATABASE_URL scheme "mysql:" is not supported'],
  ])('refuses %j', (env, message) => {
    expect(() => readConfig(env)).toThrow(message);
  });
});
