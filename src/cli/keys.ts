import { Command, InvalidArgumentError } from 'commander';
import { issueApiKey } from '../auth/api-keys.js';
import { readConfig } from '../config.js';
import type { ApiKeyRecord, ApiKeyStore } from '../storage/api-keys.js';
import { openStorage } from '../storage/open-storage.js';

function parseKeyId(value: string): number {
  const id = Number(value);
  if (!/^[1-9][0-9]*$/.test(value) || !Number.isSafeInteger(id))
    throw new InvalidArgumentError('a key id is a positive integer (see keys list)');
  return id;
}

function formatTable(keys: readonly ApiKeyRecord[]): string {
  const header = ['ACCOUNT', 'KEY ID', 'PREFIX', 'CREATED', 'REVOKED'];
  const rows = keys.map((k) => [k.accountName, String(k.id), `${k.displayPrefix}…`, k.createdAt, k.revokedAt ?? '-']);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

/** The keys of the store DATABASE_URL names, open for one action. */
async function withKeys<T>(action: (keys: ApiKeyStore) => Promise<T>): Promise<T> {
  const storage = await openStorage(readConfig().databaseUrl);
  try {
    return await action(storage);
  } finally {
    await storage.close();
  }
}

const program = new Command('keys')
  .description('Manage API keys in the store named by DATABASE_URL (created and migrated if it does not exist).')
  .showHelpAfterError();

program
  .command('create')
  .description('create a key for an account (the account is created if needed); the key is the last line of stdout')
  .requiredOption('--account <name>', 'account that owns the key')
  .action(async ({ account }: { account: string }) => {
    const issued = await withKeys((keys) => issueApiKey(keys, account));
    process.stderr.write(
      `Created key ${issued.id} (${issued.displayPrefix}…) for account "${issued.accountName}". It is shown only now:\n`,
    );
    process.stdout.write(`${issued.key}\n`);
  });

program
  .command('list')
  .description('list accounts and their keys (ids, display prefixes, created and revoked times; never a key)')
  .option('--json', 'print JSON instead of a table')
  .action(async ({ json }: { json?: boolean }) => {
    const keys = await withKeys((keys) => keys.listApiKeys());
    process.stdout.write(json ? `${JSON.stringify(keys, null, 2)}\n` : keys.length ? `${formatTable(keys)}\n` : 'No keys yet.\n');
  });

program
  .command('revoke')
  .description('revoke a key at once; requests with it get 401 from then on')
  .argument('<keyId>', 'id of the key, from keys list', parseKeyId)
  .action(async (keyId: number) => {
    const result = await withKeys((keys) => keys.revokeApiKey(keyId));
    if (result === 'not_found') {
      process.stderr.write(`No key with id ${keyId}.\n`);
      process.exitCode = 1;
    } else {
      process.stdout.write(result === 'revoked' ? `Revoked key ${keyId}.\n` : `Key ${keyId} was already revoked.\n`);
    }
  });

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`keys: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
