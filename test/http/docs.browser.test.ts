import { mkdirSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../src/contract/contract.js';
import type { OperationObject } from '../../src/contract/spec.js';
import { launchChromium } from '../support/browser.js';
import { checkContract } from '../support/contract-check.js';
import { createTestApi, type TestApi } from '../support/test-app.js';

// Unpacking and starting Chromium takes seconds, and longer on a busy machine: this file only.
const BROWSER_TIMEOUT = 120_000;
const SCREENSHOT = 'test-results/docs.png';

describe('the API reference in a real browser', () => {
  let t: TestApi;
  let origin: string;
  let browser: Browser;
  let page: Page;
  const requested: URL[] = [];
  const problems: string[] = [];
  const contractChecks: Promise<unknown>[] = [];

  beforeAll(async () => {
    t = await createTestApi();
    await t.storage.createPet({ name: 'Rex', categoryId: 3, status: 'available' });
    origin = t.origin;

    browser = await launchChromium();
    page = await browser.newPage();
    page.on('request', (request) => requested.push(new URL(request.url())));
    // Console errors include Content-Security-Policy violations and failed loads.
    page.on('console', (message) => message.type() === 'error' && problems.push(message.text()));
    page.on('pageerror', (error) => problems.push(error.message));
    // Whatever the browser receives from the server meets the contract, like any other test's responses.
    page.on('response', (response) => {
      const check = async () => {
        const url = new URL(response.url());
        const text = await response.text();
        const headers = await response.allHeaders();
        checkContract({
          method: response.request().method(),
          url: url.pathname + url.search,
          status: response.status(),
          headers,
          body: headers['content-type']?.startsWith('application/json') ? JSON.parse(text) : undefined,
          text,
        });
      };
      contractChecks.push(check().catch((error: Error) => problems.push(error.message)));
    });
  }, BROWSER_TIMEOUT);

  afterAll(async () => {
    await browser?.close();
  });

  it(
    'shows the operations, getPet deprecated, and calls nothing off this machine',
    async () => {
      await page.goto(`${origin}/docs`);
      // Swagger UI's id of an operation's block: its first tag and its operationId.
      for (const { operation } of loadContract().operations) {
        const { operationId, tags = ['default'], deprecated = false } = operation as OperationObject & { tags?: string[] };
        const block = page.locator(`#operations-${tags[0]}-${operationId}`);
        await block.waitFor();
        expect((await block.getAttribute('class'))?.includes('opblock-deprecated'), operationId).toBe(deprecated);
      }
      // "Try it out" goes to this server, not to the production host the spec names first.
      expect(await page.locator('.servers select').inputValue()).toBe('/v1');

      mkdirSync('test-results', { recursive: true });
      await page.screenshot({ path: SCREENSHOT, fullPage: true });

      await Promise.all(contractChecks);
      expect(problems).toEqual([]);
      expect(requested.length).toBeGreaterThan(0);
      expect(requested.filter((url) => !['127.0.0.1', 'localhost'].includes(url.hostname)).map(String)).toEqual([]);
    },
    BROWSER_TIMEOUT,
  );

  it(
    '"Try it out" sends the bearer key given under Authorize to this server',
    async () => {
      await page.locator('.auth-wrapper .authorize').click();
      await page.locator('.auth-container input').fill(t.key);
      await page.locator('.auth-btn-wrapper .authorize').click();
      await page.locator('.auth-btn-wrapper .btn-done').click();

      const listPets = page.locator('#operations-animals-listPets');
      await listPets.locator('.opblock-summary').click();
      await listPets.locator('.try-out__btn').click();
      // swagger-ui fills the cursor in from its example; the first page has none.
      await listPets.locator('tr[data-param-name="cursor"] input').fill('');
      const isListPets = (url: string) => new URL(url).pathname === '/v1/pets';
      const [request] = await Promise.all([
        page.waitForRequest((candidate) => isListPets(candidate.url())),
        page.waitForResponse((candidate) => isListPets(candidate.url())),
        listPets.locator('.execute').click(),
      ]);
      expect(new URL(request.url()).origin).toBe(origin);
      expect(await request.headerValue('authorization')).toBe(`Bearer ${t.key}`);
      const shown = listPets.locator('.live-responses-table tbody .response-col_status');
      await shown.waitFor();
      expect((await shown.textContent())?.trim()).toBe('200');
      expect(await listPets.locator('.live-responses-table .microlight').first().textContent()).toContain('"name": "Rex"');
      await Promise.all(contractChecks);
      expect(problems).toEqual([]);
    },
    BROWSER_TIMEOUT,
  );
});
