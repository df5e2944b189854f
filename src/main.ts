import { ensureBootstrapKey } from './auth/bootstrap.js';
import { readConfig } from './config.js';
import { loadContract } from './contract/contract.js';
import { loadPredecessor } from './contract/versions.js';
import { Lifecycle } from './http/lifecycle.js';
import { listen } from './http/listen.js';
import { createHttpServer } from './http/server.js';
import { createLogger, prettyDestination } from './log/logger.js';
import { createMetricsServer, METRICS_PATH } from './metrics/metrics-server.js';
import { Metrics } from './metrics/metrics.js';
import { openStorage } from './storage/open-storage.js';

const SIGNAL_NUMBERS: Record<string, number> = { SIGINT: 2, SIGTERM: 15 };

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel, config.logFormat === 'pretty' ? await prettyDestination() : undefined);
  const contract = loadContract();
  // The previous major version, when this one declares it still served (info.x-predecessor).
  const predecessor = loadPredecessor(contract);
  const metrics = config.metricsPort === 0 ? undefined : new Metrics();
  const storage = await openStorage(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    onBackgroundError: (error) => logger.warn({ err: error }, 'database connection lost; will reconnect on demand'),
    ...(metrics ? { metrics: metrics.storage } : {}),
  });

  const bootstrap = await ensureBootstrapKey(storage);
  if (bootstrap) {
    // Printed straight to the terminal, once, and never through the logger: logs must not hold keys.
    process.stdout.write(
      [
        '',
        `No active API key was found, so account "${bootstrap.accountName}" was created with this key (shown only once):`,
        '',
        `    ${bootstrap.key}`,
        '',
        'Make more with: npm run --silent keys -- create --account NAME   (and list/revoke with keys list, keys revoke KEY_ID)',
        '',
      ].join('\n'),
    );
  }

  // Before the API: a process that cannot serve its metrics does not start (METRICS_PORT in use).
  const metricsServer = metrics ? createMetricsServer(metrics.registry) : undefined;
  let metricsUrl: string | undefined;
  if (metricsServer) {
    const listening = await listen(metricsServer, { port: config.metricsPort, host: config.host, sockets: 1 }).catch((error: Error) => {
      throw new Error(`METRICS_PORT ${config.metricsPort} on ${config.host}: ${error.message}`);
    });
    metricsUrl = `${listening.url}${METRICS_PATH}`;
  }

  // Loaded only when asked for: production neither loads nor runs it.
  const checkOutcomes = config.checkResponses ? (await import('./dev/response-check.js')).responseCheck(contract) : undefined;
  const lifecycle = new Lifecycle();
  const server = createHttpServer({
    contract,
    storage,
    logger,
    lifecycle,
    timeouts: config,
    idempotencyRetentionSeconds: config.idempotencyRetentionSeconds,
    ...(metrics ? { metrics } : {}),
    rateLimits: { requestsPerKeyPerMinute: config.rateLimitPerMinute, failedAuthPerAddressPerMinute: config.failedAuthPerMinute },
    trustProxyHops: config.trustProxyHops,
    ...(predecessor ? { predecessor } : {}),
    ...(checkOutcomes ? { checkOutcomes } : {}),
  });
  const listening = await listen(server, { port: config.port, host: config.host });
  // Once listening, an error is a connection that could not be accepted (libuv retries EMFILE by
  // itself): the others are served on.
  server.on('error', (error) => logger.error({ err: error }, 'a connection could not be accepted'));
  // SIGTERM or SIGINT: drain, close, exit 0 by the deadline whatever clients do; a second signal
  // exits at once.
  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      process.exit(128 + (SIGNAL_NUMBERS[signal] ?? 1));
    }
    stopping = true;
    logger.info({ signal, drainMs: config.shutdownDrainMs, timeoutMs: config.shutdownTimeoutMs }, 'shutting down: draining');
    const deadline = setTimeout(() => {
      logger.warn('shutdown deadline reached: closing the remaining connections');
      lifecycle.abort();
      // The store gets a moment to close; the process goes whatever happens.
      setTimeout(() => process.exit(0), 1000).unref();
    }, config.shutdownTimeoutMs);
    await lifecycle.shutdown(listening, config.shutdownDrainMs);
    clearTimeout(deadline);
    // Scrapes go on until the API has closed, so the last ones see the drain.
    metricsServer?.close();
    metricsServer?.closeAllConnections();
    await storage.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', (signal) => void stop(signal));
  process.on('SIGTERM', (signal) => void stop(signal));

  // Only now: whoever waits for this line may signal the process at once.
  // One line with both addresses: `url` is the API's, so whatever reads the first `url` of the log
  // finds the API; `metricsUrl` is the metrics listener's, when it is on.
  logger.info({ url: `${listening.url}${contract.basePath}`, storage: storage.kind, ...(metricsUrl ? { metricsUrl } : {}) }, 'listening');
}

main().catch((error: unknown) => {
  process.stderr.write(`petstore-api failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
