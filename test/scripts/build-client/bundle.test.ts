import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { backends } from '../../support/backends.js';
import { clientApiPerTest } from '../../support/client-api.js';
import { checkContract, type ObservedResponse } from '../../support/contract-check.js';

const BUNDLE = 'dist/client/index.js';

// Runs next to a copy of the bundle alone. It records every response it receives so that the test
// can check them against openapi.yaml, as it does every response a test sees.
const SCRIPT = `
import { createPetStoreClient, listAllPets, PetStoreApiError } from './index.js';

const [baseUrl, apiKey] = process.argv.slice(2);
const observed = [];
const recordingFetch = async (request) => {
  const response = await fetch(request);
  const { pathname, search } = new URL(request.url);
  observed.push({ method: request.method, url: pathname + search, status: response.status, headers: Object.fromEntries(response.headers), text: await response.clone().text() });
  return response;
};
const client = createPetStoreClient({ baseUrl, apiKey, fetch: recordingFetch, onDeprecation: () => {} });
const created = await client.POST('/pets', { body: { name: 'Bundled', categoryId: 1, status: 'sold' } });
await client.POST('/pets', { body: { name: 'Second', categoryId: 2 } });
const all = [];
for await (const pet of listAllPets(client, { pageSize: 1 })) all.push(pet);
const denied = await listAllPets(createPetStoreClient({ baseUrl, apiKey: 'psk_wrong', fetch: recordingFetch })).next().catch((error) => error);
const openapiFetchReachable = await import('openapi-fetch').then(() => true, () => false);
console.log(JSON.stringify({ created: created.data, all, denied: denied instanceof PetStoreApiError && denied.error, openapiFetchReachable, observed }));
`;

function hasNodeModulesAbove(folder: string): boolean {
  for (let dir = folder; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'node_modules'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

describe('the client bundle, dist/client/index.js', () => {
  const text = readFileSync(BUNDLE, 'utf8');

  it('imports nothing: no require, no node: built-ins, no server dependencies', () => {
    expect(text).not.toContain('require(');
    expect(text).not.toMatch(/from\s*["']node:/);
    expect(text).not.toMatch(/import\(\s*["']node:/);
    expect(text).not.toMatch(/\bimport\s*["'`]|\bfrom\s*["'`]/); // no import of any module at all
    expect(text).not.toMatch(/express|better-sqlite3|sqlite/i);
  });

  it('is the size README.md states, give or take 10%', () => {
    const stated = /\*\*([\d,]+) bytes minified/.exec(readFileSync('README.md', 'utf8'))?.[1];
    expect(stated, 'README.md states the bundle size').toBeDefined();
    expect(Math.abs(Buffer.byteLength(text) / Number(stated!.replace(/,/g, '')) - 1)).toBeLessThan(0.1);
  });

  it('ships the declarations next to it, self-contained in dist/client', () => {
    expect(readFileSync('dist/client/index.d.ts', 'utf8')).toContain("from './types/src/client/index.js'");
    expect(readFileSync('dist/client/types/generated/openapi.d.ts', 'utf8')).toBe(readFileSync('generated/openapi.d.ts', 'utf8'));
  });
});

describe.each(backends)('the client bundle, copied alone to a folder without node_modules ($name)', (backend) => {
  const api = clientApiPerTest(backend);

  it('creates, pages through and reports errors against the real server from a child node process', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-bundle-'));
    expect(hasNodeModulesAbove(folder)).toBe(false);
    copyFileSync(BUNDLE, join(folder, 'index.js'));
    writeFileSync(join(folder, 'run.mjs'), SCRIPT);

    const { stdout } = await promisify(execFile)(process.execPath, ['run.mjs', api().server.baseUrl, api().apiKey], {
      cwd: folder,
      env: { PATH: process.env['PATH'] ?? '' },
    });
    const result = JSON.parse(stdout) as {
      created: unknown;
      all: unknown[];
      denied: unknown;
      openapiFetchReachable: boolean;
      observed: Omit<ObservedResponse, 'body'>[];
    };

    expect(result.openapiFetchReachable).toBe(false);
    expect(result.created).toEqual({ id: 1, name: 'Bundled', categoryId: 1, status: 'sold' });
    expect(result.all).toEqual([result.created, { id: 2, name: 'Second', categoryId: 2 }]);
    expect(result.denied).toMatchObject({ code: 'invalid_api_key', status: 401 });
    expect(result.observed.map(({ method, url, status }) => `${method} ${url} ${status}`)).toEqual([
      'POST /v1/pets 201',
      'POST /v1/pets 201',
      'GET /v1/pets?limit=1 200',
      expect.stringMatching(/^GET \/v1\/pets\?limit=1&cursor=[A-Za-z0-9_-]+ 200$/),
      'GET /v1/pets 401',
    ]);
    for (const response of result.observed) checkContract({ ...response, body: JSON.parse(response.text) });
  });
});
