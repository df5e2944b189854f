import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as PetStoreClient from '../../src/index.js';
import { packClient } from '../support/client-tarball.js';
import { checkContract, launchChromium, runKeys, startServer, tempDatabaseUrl, type RunningServer } from '../support/pet-store.js';

// Unpacking and starting Chromium takes seconds, and longer on a busy machine: this file only.
const BROWSER_TIMEOUT = 120_000;

// The API sends no CORS headers, so the page is served from the API server's own origin: the browser
// asks the server for /petstore-client/..., and Playwright answers those requests with the page and
// the tarball's index.js; everything else (the API calls) reaches the real server.
const PAGE_PATH = '/petstore-client/';
const PAGE = `<!doctype html>
<meta charset="utf-8">
<title>petstore-client in a browser</title>
<script type="module">
  import * as petstore from './index.js';
  window.petstore = petstore;
</script>`;

describe('npm pack: the tarball’s bundle in a page in headless Chromium', () => {
  let server: RunningServer;
  let apiKey: string;
  let bundle: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  const checks: Promise<unknown>[] = [];

  beforeAll(async () => {
    const unpacked = mkdtempSync(join(tmpdir(), 'petstore-unpacked-'));
    await promisify(execFile)('tar', ['-xzf', await packClient(), '-C', unpacked]);
    bundle = readFileSync(join(unpacked, 'package', 'dist', 'index.js'), 'utf8');

    const env = { DATABASE_URL: tempDatabaseUrl() };
    apiKey = runKeys(['create', '--account', 'browser'], env).stdout.trim().split('\n').at(-1)!;
    server = await startServer(env);

    browser = await launchChromium();
    page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    const origin = new URL(server.baseUrl).origin;
    await page.route(`${origin}${PAGE_PATH}**`, (route) => {
      const file = new URL(route.request().url()).pathname.slice(PAGE_PATH.length);
      if (file === 'index.html') return route.fulfill({ contentType: 'text/html; charset=utf-8', body: PAGE });
      if (file === 'index.js') return route.fulfill({ contentType: 'text/javascript; charset=utf-8', body: bundle });
      return route.fulfill({ status: 404 });
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    // Whatever the browser receives from the API meets the contract, like any other test's responses.
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (url.pathname.startsWith(PAGE_PATH)) return;
      const check = async () => {
        const text = await response.text();
        checkContract({
          method: response.request().method(),
          url: url.pathname + url.search,
          status: response.status(),
          headers: await response.allHeaders(),
          body: JSON.parse(text),
          text,
        });
      };
      checks.push(check().catch((error: Error) => problems.push(error.message)));
    });
  }, BROWSER_TIMEOUT);

  afterAll(async () => {
    await browser?.close();
    if (server) expect(await server.stop()).toBe(0);
  });

  it(
    'creates, pages through and reports errors against the server',
    async () => {
      await page.goto(`${new URL(server.baseUrl).origin}${PAGE_PATH}index.html`);
      const result = await page.evaluate(
        async ({ baseUrl, apiKey }) => {
          const { createPetStoreClient, listAllPets } = (globalThis as unknown as { petstore: typeof PetStoreClient }).petstore;
          const client = createPetStoreClient({ baseUrl, apiKey });
          const created = await client.POST('/pets', { body: { name: 'Browsed', categoryId: 5, status: 'pending' } });
          await client.POST('/pets', { body: { name: 'Second', categoryId: 1 } });
          const pets: PetStoreClient.Pet[] = [];
          for await (const pet of listAllPets(client, { pageSize: 1 })) pets.push(pet);
          const denied = await createPetStoreClient({ baseUrl, apiKey: 'psk_wrong' }).GET('/pets');
          return { created: created.data, pets, denied: denied.error };
        },
        { baseUrl: server.baseUrl, apiKey },
      );

      expect(result.created).toEqual({ id: 1, name: 'Browsed', categoryId: 5, status: 'pending' });
      expect(result.pets).toEqual([result.created, { id: 2, name: 'Second', categoryId: 1 }]);
      expect(result.denied).toMatchObject({ code: 'invalid_api_key', status: 401 });
      await Promise.all(checks);
      expect(checks).toHaveLength(5);
      // The 401 is the one expected console error: Chromium logs every failed response.
      expect(problems).toEqual([expect.stringContaining('401 (Unauthorized)')]);
    },
    BROWSER_TIMEOUT,
  );
});
