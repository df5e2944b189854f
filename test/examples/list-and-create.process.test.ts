import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { backends } from '../support/backends.js';
import { runKeys, startServer, type RunningServer } from '../support/processes.js';

// docs/client.md tells people to run this script; it must keep working against the real server.
describe.each(backends)('examples/list-and-create.mjs ($name)', (backend) => {
  let server: RunningServer;
  let apiKey: string;
  beforeEach(async () => {
    const env = { DATABASE_URL: await backend.createDatabaseUrl() };
    apiKey = runKeys(['create', '--account', 'client'], env).stdout.trim().split('\n').at(-1)!;
    server = await startServer(env);
  });
  afterEach(async () => {
    expect(await server.stop()).toBe(0);
  });

  it('creates a pet and lists the available ones through petstore-client', async () => {
    const env = { ...process.env, PETSTORE_BASE_URL: server.baseUrl, PETSTORE_API_KEY: apiKey };
    const run = () => promisify(execFile)(process.execPath, ['examples/list-and-create.mjs', 'Tom'], { env });
    await run();
    const { stdout, stderr } = await run();
    expect(stdout).toBe('Created pet 2 (Tom) at /v1/pets/2\n  #1 Tom\n  #2 Tom\n2 available pet(s).\n');
    expect(stderr).toBe('');
  });
});
