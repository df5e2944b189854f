import type { AddressInfo } from 'node:net';
import { ensureBootstrapKey } from './auth/bootstrap.js';
import { readConfig } from './config.js';
import { loadContract } from './contract/contract.js';
import { createHttpServer } from './http/server.js';
import { createLogger } from './log/logger.js';
import { openStorage } from './storage/open-storage.js';

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

  const server = createHttpServer({ contract, storage, logger, idempotencyRetentionSeconds: config.idempotencyRetentionSeconds });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
    server.listen(config.port, config.host);
  });
  const { address, port } = server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  logger.info({ url: `http://${host}:${port}${contract.basePath}`, storage: storage.kind }, 'listening');

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    server.close(() => {
      void storage.close().then(() => process.exit(0));
    });
    server.closeIdleConnections();
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  process.stderr.write(`petstore-api failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
