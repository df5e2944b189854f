import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { backends } from '../support/backends.js';
import { clientApiPerTest } from '../../packages/client/test/support/client-api.js';

// docs/client.md tells people to run this script; it must keep working against the real server.
describe.each(backends)('examples/list-and-create.mjs ($name)', (backend) => {
  const api = clientApiPerTest(backend);

  it('creates a pet and lists the available ones through petstore-client', async () => {
    const env = { ...process.env, PETSTORE_BASE_URL: api().server.baseUrl, PETSTORE_API_KEY: api().apiKey };
    const run = () => promisify(execFile)(process.execPath, ['examples/list-and-create.mjs', 'Tom'], { env });
    await run();
    const { stdout, stderr } = await run();
    expect(stdout).toBe('Created pet 2 (Tom) at /v1/pets/2\n  #1 Tom\n  #2 Tom\n2 available pet(s).\n');
    expect(stderr).toBe('');
  });
});
