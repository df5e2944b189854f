import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { load } from 'js-yaml';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BackstageApiEntity, PostmanCollection, PostmanItem } from '../../scripts/portal-artifacts.js';
import { formatSpec, listOperations, parseSpec, readSpecText, type OperationObject } from '../../src/contract/spec.js';
import { launchChromium } from '../support/browser.js';

// Unpacking and starting Chromium takes seconds, and longer on a busy machine: this file only.
const BROWSER_TIMEOUT = 120_000;
const SCREENSHOT = 'test-results/build-docs.png';

const spec = parseSpec(readSpecText());
const operations = listOperations(spec);
// The headings of info.description, which Redoc lists in its menu before the operations.
const sections = [...((spec.info as { description?: string }).description ?? '').matchAll(/^## (.+)$/gm)].map(([, heading]) => heading!);
// The changelog is checked against a release of the test's making, openapi.yaml without its last path,
// so that it has something to report whatever openapi.yaml says today.
const lastPath = Object.keys(spec.paths).at(-1)!;
const out = mkdtempSync(join(tmpdir(), 'petstore-docs-'));

beforeAll(async () => {
  const releases = join(out, 'releases');
  mkdirSync(releases);
  const release = structuredClone(spec);
  delete release.paths[lastPath];
  writeFileSync(join(releases, `${spec.info.version}.yaml`), formatSpec(release));
  await promisify(execFile)(process.execPath, [
    '--import',
    'tsx',
    'scripts/build-docs.ts',
    '--out',
    join(out, 'docs'),
    '--releases',
    releases,
  ]);
}, 120_000);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const artifact = (name: string) => readFileSync(join(out, 'docs', name), 'utf8');

function requests(items: PostmanItem[]): PostmanItem[] {
  return items.flatMap((item) => (item.item ? requests(item.item) : [item]));
}

describe('npm run docs (scripts/build-docs.ts): the portal artifacts in build/docs/', () => {
  it('bundles the spec as openapi.json and openapi.yaml', () => {
    const bundled = JSON.parse(artifact('openapi.json')) as typeof spec;
    expect(load(artifact('openapi.yaml'))).toEqual(bundled);
    expect(bundled.info).toEqual(spec.info);
    expect(Object.keys(bundled.paths)).toEqual(Object.keys(spec.paths));
  });

  it('writes a Postman collection with every operation, the bearer key and the base URL as collection variables', () => {
    const collection = JSON.parse(artifact('petstore.postman_collection.json')) as PostmanCollection;
    expect(collection.info).toMatchObject({
      name: spec.info.title,
      schema: 'https://schema.getpostman.com/json/collection/v2.1.0/collection.json',
    });
    expect(collection.auth).toEqual({ type: 'bearer', bearer: [{ key: 'token', value: '{{apiKey}}', type: 'string' }] });
    expect(collection.variable!.map(({ key }) => key)).toEqual(expect.arrayContaining(['apiKey', 'baseUrl']));

    const all = requests(collection.item);
    const seen = all.map(
      ({ request }) => `${request!.method} /${request!.url.path.map((segment) => segment.replace(/^:(.+)$/, '{$1}')).join('/')}`,
    );
    expect(seen.sort()).toEqual(operations.map(({ method, path }) => `${method.toUpperCase()} ${path}`).sort());
    for (const { request } of all) {
      expect(request!.url.host).toEqual(['{{baseUrl}}']);
      expect(request!.auth ?? null, 'every request inherits the collection auth').toBeNull();
    }
  });

  it('writes a Backstage API entity whose definition is the bundled spec beside it', () => {
    const entity = load(artifact('catalog-info.yaml')) as BackstageApiEntity;
    expect(entity).toMatchObject({ apiVersion: 'backstage.io/v1alpha1', kind: 'API', spec: { type: 'openapi' } });
    // Backstage's rules for names and entity references.
    expect(entity.metadata.name).toMatch(/^[a-z0-9A-Z]([-_.a-z0-9A-Z]{0,61}[a-z0-9A-Z])?$/);
    expect(entity.spec.owner).toMatch(/^group:[a-z0-9-]+$/);
    expect(entity.spec.lifecycle).toBe('production');
    const definition = readFileSync(join(out, 'docs', entity.spec.definition.$text), 'utf8');
    expect(definition).toBe(artifact('openapi.yaml'));
  });

  it("writes CHANGELOG.md: oasdiff's changes since the newest release", () => {
    const changelog = artifact('CHANGELOG.md');
    expect(changelog).toMatch(new RegExp(`^# ${spec.info.title}: changes since ${spec.info.version.replace(/\./g, '\\.')}\n`));
    const removedMethods = operations.filter(({ path }) => path === lastPath).map(({ method }) => method.toUpperCase());
    expect(removedMethods.length).toBeGreaterThan(0);
    for (const method of removedMethods) expect(changelog).toContain(`### ${method} ${lastPath}\n- endpoint added`);
  });
});

describe('npm run docs: index.html in a real browser, from file://', () => {
  let browser: Browser;
  let page: Page;
  const requested: string[] = [];
  const blockedByThePage = new Set<string>();
  const problems: string[] = [];
  const workers: string[] = [];

  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    page.setDefaultTimeout(20_000);
    page.on('request', (request) => requested.push(request.url()));
    // The page's Content-Security-Policy refuses these inside the browser, before any connection.
    page.on('requestfailed', (request) => request.failure()?.errorText === 'csp' && blockedByThePage.add(request.url()));
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('worker', (worker) => workers.push(worker.url()));
  }, BROWSER_TIMEOUT);

  afterAll(async () => {
    await browser?.close();
  });

  it(
    'renders every operation, under its tag, and every section of the description, finds them by search, and nothing leaves the machine',
    async () => {
      await page.goto(pathToFileURL(join(out, 'docs', 'index.html')).href);
      expect(await page.evaluate('document.compatMode'), 'standards mode: the page starts with <!doctype html>').toBe('CSS1Compat');
      const byTag = new Map<string, { method: string; operation: OperationObject }[]>();
      for (const { method, operation } of operations) {
        const tag = (operation as { tags?: string[] }).tags?.[0] ?? 'default';
        byTag.set(tag, [...(byTag.get(tag) ?? []), { method, operation }]);
      }
      // Through the menu, as a reader would: a tag opens its operations, each shows its own page.
      for (const [tag, tagged] of byTag) {
        await page.getByRole('link', { name: tag, exact: true }).click();
        for (const { method, operation } of tagged) {
          await page.getByRole('link', { name: `${operation.summary} ${method}`, exact: true }).click();
          await page.getByRole('heading', { name: new RegExp(escapeRegExp(operation.summary!)) }).waitFor();
        }
      }
      // The sections of info.description, each an entry of the menu that shows its heading.
      expect(sections.length).toBeGreaterThan(0);
      for (const section of sections) {
        await page.getByRole('link', { name: section, exact: true }).click();
        await page.getByRole('heading', { name: new RegExp(`${escapeRegExp(section)}$`) }).waitFor();
      }
      // Search works, in its workers: the page's policy takes nothing away from Redoc.
      const [first] = operations;
      const found = page.getByRole('link', { name: `${first!.method.toUpperCase()} ${first!.path} ${first!.operation.summary}` }).first();
      // Redoc's search dialog closes itself whenever its router's location object changes, and on a
      // busy machine that can happen a moment after the page shows the operation: a reader then
      // opens it again, and so does this, a bounded number of times.
      const dialog = page.getByTestId('search-dialog');
      const settled = (step: Promise<unknown>) =>
        step.then(
          () => true,
          () => false,
        );
      for (let opened = 1; ; opened++) {
        await page.keyboard.press('Control+K');
        if (await settled(page.getByPlaceholder('Search docs...').fill(first!.operation.summary!, { timeout: 5_000 }))) {
          await Promise.race([settled(found.waitFor()), settled(dialog.waitFor({ state: 'detached' }))]);
          if (await found.isVisible()) break;
        }
        expect(opened, 'the search dialog closed before it answered, every time').toBeLessThan(5);
      }
      expect(workers.length).toBeGreaterThan(0);

      mkdirSync(dirname(SCREENSHOT), { recursive: true });
      await page.screenshot({ path: SCREENSHOT });

      expect(problems).toEqual([]);
      expect(requested.length).toBeGreaterThan(0);
      const local = (url: string) => ['file:', 'data:', 'blob:'].includes(new URL(url).protocol);
      expect(requested.filter((url) => !local(url) && !blockedByThePage.has(url))).toEqual([]);
    },
    BROWSER_TIMEOUT,
  );
});
