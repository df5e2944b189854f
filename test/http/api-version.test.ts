import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { beforeAll, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { issueApiKey } from '../../src/auth/api-keys.js';
import { loadContract, type Contract } from '../../src/contract/contract.js';
import { listOperations, SPEC_PATH } from '../../src/contract/spec.js';
import { latestReleaseOf, loadVersions, RELEASES_DIR, type Retirement } from '../../src/contract/versions.js';
import { createHandlers } from '../../src/handlers/index.js';
import type { OperationHandlers } from '../../src/handlers/operation.js';
import { createApp } from '../../src/http/app.js';
import { createLogger } from '../../src/log/logger.js';
import type { Storage } from '../../src/storage/storage.js';
import { ContractChecker } from '../support/contract-check.js';
import { openTestStorage } from '../support/test-app.js';

const DEPRECATED_AT = '2026-12-01T00:00:00Z';
const SUNSET_AT = '2027-06-01T00:00:00Z';

/**
 * The worked example of docs/versioning.md#serving-two-major-versions on a copy: openapi.yaml cut
 * as 2.0.0, with listPets' query parameter `status` renamed `state` (a breaking change), under /v2,
 * declaring the latest 1.x release its predecessor; spec/releases/ as it is. Once the repository
 * has made that cut itself (openapi.yaml declares `info.x-predecessor`), its own files.
 */
function versionFiles(): { specFile: string; releasesDir: string; cut: boolean } {
  if (loadVersions(SPEC_PATH, RELEASES_DIR).predecessor) return { specFile: SPEC_PATH, releasesDir: RELEASES_DIR, cut: false };
  return { ...cutVersion2(), cut: true };
}

function cutVersion2(): { specFile: string; releasesDir: string } {
  const root = mkdtempSync(join(tmpdir(), 'petstore-v2-'));
  const releasesDir = join(root, 'releases');
  mkdirSync(releasesDir);
  for (const name of readdirSync(RELEASES_DIR)) copyFileSync(join(RELEASES_DIR, name), join(releasesDir, name));
  const spec = YAML.parseDocument(readFileSync(SPEC_PATH, 'utf8'));
  spec.setIn(['info', 'version'], '2.0.0');
  spec.setIn(['info', 'x-predecessor'], spec.createNode({ deprecatedAt: DEPRECATED_AT, sunsetAt: SUNSET_AT }));
  const servers = spec.get('servers') as YAML.YAMLSeq<YAML.YAMLMap>;
  for (const server of servers.items) server.set('url', String(server.get('url')).replace(/\/v1$/, '/v2'));
  const parameters = (spec.getIn(['components', 'parameters']) as YAML.YAMLMap<YAML.Scalar, YAML.YAMLMap>).items;
  const status = parameters.find(({ value }) => value?.get('in') === 'query' && value.get('name') === 'status')!;
  status.value!.set('name', 'state');
  const specFile = join(root, 'openapi.yaml');
  writeFileSync(specFile, spec.toString());
  return { specFile, releasesDir };
}

/**
 * 2.0.0's handlers, from this repository's (which still read `status`): listPets adapted, as a
 * maintainer adapts the 1.x one the other way round once list-pets.ts reads `state`.
 */
function version2Handlers(storage: Storage): OperationHandlers {
  const current = createHandlers({ storage, basePath: '/v2' });
  return {
    ...current,
    listPets: async (listRequest) => {
      // Loosely typed: after the cut, this version's query has no `status` (and this goes unused).
      const { state, ...rest } = listRequest.query as Record<string, unknown>;
      const query = { ...rest, ...(state ? { status: state } : {}) } as typeof listRequest.query;
      const result = await current.listPets({ ...listRequest, query });
      if ('recorded' in result) return result;
      const link = result.headers?.Link?.replace(/([?&])status=/, '$1state=');
      return link ? { ...result, headers: { Link: link } } : result;
    },
  };
}

interface Served {
  api: ReturnType<typeof request>;
  auth: { Authorization: string };
  storage: Storage;
  v1: Contract;
  v2: Contract;
  retirement: Retirement;
}

/** Both versions, served at the instant `at` picks from /v1's retirement. */
async function serveBoth(at: (retirement: Retirement) => Date): Promise<Served> {
  const { specFile, releasesDir, cut } = versionFiles();
  const { current, predecessor } = loadVersions(specFile, releasesDir);
  if (!predecessor) throw new Error('2.0.0 declares no predecessor');
  const storage = await openTestStorage();
  const { key } = await issueApiKey(storage, 'tester');
  const app = createApp({
    contract: current,
    storage,
    logger: createLogger('silent'),
    clock: () => at(predecessor.retirement),
    ...(cut ? { handlers: version2Handlers(storage) } : {}),
    predecessor,
  });
  const { retirement } = predecessor;
  return { api: request(app), auth: { Authorization: `Bearer ${key}` }, storage, v1: predecessor.contract, v2: current, retirement };
}

const BEFORE_SUNSET = ({ deprecatedAt }: Retirement) => new Date(deprecatedAt.getTime() + 86_400_000);

/** Holds a response to the document of the version it came from: the one Error object, documented statuses. */
function check(contract: Contract, url: string, res: request.Response): void {
  new ContractChecker(contract.document, { basePath: contract.basePath }).check({
    method: 'GET',
    url,
    status: res.status,
    headers: res.headers,
    body: res.body as unknown,
    text: res.text,
  });
}

describe('two major versions served by one process', () => {
  let t: Served;
  beforeAll(async () => {
    t = await serveBoth(BEFORE_SUNSET);
    for (const [name, status] of [
      ['Rex', 'sold'],
      ['Tom', 'available'],
      ['Kit', 'sold'],
    ] as const) {
      await t.storage.createPet({ name, categoryId: 1, status });
    }
  });

  it('serves /v1 from the latest 1.x release and /v2 from openapi.yaml, each validated by its own document', async () => {
    expect(t.v1.document.info.version).toBe(latestReleaseOf(RELEASES_DIR, 1)!.match(/(\d+\.\d+\.\d+)\.yaml$/)![1]);
    expect([t.v1.basePath, t.v2.basePath]).toEqual(['/v1', '/v2']);
    const v1 = await t.api.get('/v1/pets?status=sold').set(t.auth).expect(200);
    const v2 = await t.api.get('/v2/pets?state=sold').set(t.auth).expect(200);
    check(t.v1, '/v1/pets?status=sold', v1);
    check(t.v2, '/v2/pets?state=sold', v2);
    expect((v1.body as Array<{ name: string }>).map(({ name }) => name)).toEqual(['Rex', 'Kit']);
    expect(v2.body).toEqual(v1.body);
  });

  it.each([
    ['/v2/pets?status=sold', 'v2', 'status'],
    ['/v1/pets?state=sold', 'v1', 'state'],
  ] as const)('answers %s with 400: that version has no such parameter', async (url, version, name) => {
    const res = await t.api.get(url).set(t.auth).expect(400);
    check(t[version], url, res);
    expect(res.body).toMatchObject({ code: 'validation_failed' });
    expect(JSON.stringify(res.body)).toContain(`Unknown query parameter '${name}'`);
  });

  it("links each version's next page in its own parameters, under its own base path", async () => {
    const v1 = await t.api.get('/v1/pets?status=sold&limit=1').set(t.auth).expect(200);
    const v2 = await t.api.get('/v2/pets?state=sold&limit=1').set(t.auth).expect(200);
    expect(v1.headers['link']).toMatch(/, <\/v1\/pets\?limit=1&status=sold&cursor=[\w-]+>; rel="next"$/);
    expect(v2.headers['link']).toMatch(/^<\/v2\/pets\?limit=1&state=sold&cursor=[\w-]+>; rel="next"$/);
  });

  it('marks every /v1 response, even a 401, with Deprecation, Sunset and a link to /v2; /v2 with none', async () => {
    const seconds = t.retirement.deprecatedAt.getTime() / 1000;
    for (const res of [await t.api.get('/v1/pets').set(t.auth).expect(200), await t.api.get('/v1/pets').expect(401)]) {
      expect(res.headers['deprecation']).toBe(`@${seconds}`);
      expect(res.headers['sunset']).toBe(t.retirement.sunsetAt.toUTCString());
      expect(res.headers['link']).toContain('</v2/docs>; rel="successor-version"');
    }
    const v2 = await t.api.get('/v2/pets').set(t.auth).expect(200);
    expect(v2.headers['deprecation']).toBeUndefined();
    expect(v2.headers['sunset']).toBeUndefined();
  });

  it("keeps a deprecated operation's own, earlier dates in /v1", async () => {
    const getPet = t.v1.deprecations.find(({ operationId }) => operationId === 'getPet')!;
    const res = await t.api.get('/v1/pets/1').set(t.auth).expect(200);
    expect(res.headers['deprecation']).toBe(`@${getPet.deprecatedAt.getTime() / 1000}`);
    expect(res.headers['sunset']).toBe(getPet.sunsetAt.toUTCString());
  });

  it('publishes each version at its own address, and the current one at the addresses of one version', async () => {
    const v1 = await t.api.get('/v1/openapi.json').expect(200);
    const v2 = await t.api.get('/v2/openapi.json').expect(200);
    const current = await t.api.get('/openapi.json').expect(200);
    expect(v1.body).toEqual(t.v1.document);
    expect(v2.body).toEqual(t.v2.document);
    expect(current.body).toEqual(t.v2.document);
    const yaml = await t.api.get('/v1/openapi.yaml').buffer(true).expect(200);
    expect(yaml.text).toBe(t.v1.sourceText);
    for (const page of ['/docs', '/v1/docs', '/v2/docs']) {
      const res = await t.api.get(page).expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    }
  });

  it.each([
    '/v3/pets',
    '/v0/pets',
    '/V1/pets',
    '/v1.0/pets',
    '/V2/pets',
    '/v2.0/openapi.json',
    '/v1/openapi.json/',
    '/v01/pets',
    '/v1/docs/',
  ])('answers %s with 404 and the one Error object', async (url) => {
    const res = await t.api.get(url).set(t.auth).expect(404);
    expect(res.body).toMatchObject({ code: 'route_not_found' });
    check(t.v2, url, res);
  });

  it("answers each version's errors with the one Error object its document describes", async () => {
    for (const [contract, url] of [
      [t.v1, '/v1/pets?limit=0'],
      [t.v2, '/v2/pets?limit=0'],
      [t.v1, '/v1/pets/999999'],
      [t.v2, '/v2/pets/999999'],
    ] as const) {
      const res = await t.api.get(url).set(t.auth);
      expect(res.status).toBeGreaterThanOrEqual(400);
      check(contract, url, res);
    }
  });

  it('serves every operation of each version under its base path', async () => {
    for (const contract of [t.v1, t.v2]) {
      for (const { method, path } of listOperations(contract.document)) {
        const url = contract.basePath + path.replace(/\{[^}]+\}/g, '1');
        const res = await (t.api as unknown as Record<string, (url: string) => request.Test>)[method]!(url).set(t.auth);
        expect((res.body as { code?: string }).code, `${method} ${url}`).not.toBe('route_not_found');
      }
    }
  });
});

describe('after its sunset', () => {
  it('answers /v1 with 410 and a pointer to /v2, while /v2 goes on', async () => {
    const t = await serveBoth(({ sunsetAt }) => new Date(sunsetAt.getTime() + 1000));
    const gone = await t.api.get('/v1/pets').set(t.auth).expect(410);
    expect(gone.body).toMatchObject({ code: 'operation_sunset' });
    expect((gone.body as { message: string }).message).toContain('/v2/docs');
    await t.api.get('/v2/pets').set(t.auth).expect(200);
  });
});

describe('one version served', () => {
  it('publishes it at /v1/openapi.json and /v1/docs as well, with no Deprecation on its responses', async () => {
    const storage = await openTestStorage();
    const { key } = await issueApiKey(storage, 'tester');
    const contract = loadContract();
    const api = request(createApp({ contract, storage, logger: createLogger('silent') }));
    expect((await api.get(`${contract.basePath}/openapi.json`).expect(200)).body).toEqual(contract.document);
    await api.get(`${contract.basePath}/docs`).expect(200);
    const res = await api.get(`${contract.basePath}/pets`).set('Authorization', `Bearer ${key}`).expect(200);
    expect(res.headers['deprecation']).toBeUndefined();
    const next = `/v${Number(contract.basePath.slice('/v'.length)) + 1}/pets`;
    await api.get(next).set('Authorization', `Bearer ${key}`).expect(404);
  });
});
