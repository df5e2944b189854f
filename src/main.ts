import type { AddressInfo } from 'node:net';
import { ensureBootstrapKey } from './auth/bootstrap.js';
import { readConfig } from './config.js';
import { loadContract } from './contract/contract.js';
import { Lifecycle } from './http/lifecycle.js';
import { createHttpServer } from './http/server.js';
import { createLogger } from './log/logger.js';
import { openStorage } from './storage/open-storage.js';

const SIGNAL_NUMBERS: Record<string, number> = { SIGINT: 2, SIGTERM: 15 };

async function main(): Promise<void> {
  const config = readConfig();
  const logger = createLogger(config.logLevel);
  const contract = loadContract();
  const storage = await openStorage(config.databaseUrl, {
    poolSize: config.databasePoolSize,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    onBackgroundError: (error) => logger.warn({ err: error }, 'database connection lost; will reconnect on demand'),
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

  const lifecycle = new Lifecycle();
  const server = createHttpServer({
    contract,
    storage,
    logger,
    lifecycle,
    timeouts: config,
    idempotencyRetentionSeconds: config.idempotencyRetentionSeconds,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
    server.listen(config.port, config.host);
  });
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
    await lifecycle.shutdown(server, config.shutdownDrainMs);
    clearTimeout(deadline);
    await storage.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.on('SIGINT', (signal) => void stop(signal));
  process.on('SIGTERM', (signal) => void stop(signal));

  // Only now: whoever waits for this line may signal the process at once.
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  logger.info({ url: `http://${host}:${port}${contract.basePath}`, storage: storage.kind }, 'listening');
}

main().catch((error: unknown) => {
  process.stderr.write(`petstore-api failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
