import { readConfig } from '../config.js';
import { openStorage } from '../storage/open-storage.js';

/**
 * Creates or migrates the store named by DATABASE_URL and exits: for deploy pipelines that migrate
 * before rolling out processes. Servers also migrate on start, under the same lock.
 */
try {
  const config = readConfig();
  const storage = await openStorage(config.databaseUrl, { connectTimeoutMs: config.databaseConnectTimeoutMs });
  await storage.close();
  process.stdout.write(`The ${storage.kind} store is migrated to the latest schema.\n`);
} catch (error) {
  process.stderr.write(`migrate: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
