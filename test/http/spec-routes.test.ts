import { readFileSync } from 'node:fs';
import { beforeEach, describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { contractFromDocument, loadContract } from '../../src/contract/contract.js';
import { SPEC_PATH } from '../../src/contract/spec.js';
import { createTestApi, type TestApi } from '../support/test-app.js';

const specText = readFileSync(SPEC_PATH, 'utf8');

describe('the published spec', () => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi();
  });

  it('serves openapi.yaml, parsed, at /openapi.json without a key', async () => {
    const res = await t.api.get('/openapi.json').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).toEqual(YAML.parse(specText));
  });

  it('serves the text of openapi.yaml at /openapi.yaml as application/yaml', async () => {
    // superagent keeps the text of text and JSON only, unless asked to buffer.
    const res = await t.api.get('/openapi.yaml').buffer(true).expect(200);
    expect(res.headers['content-type']).toBe('application/yaml; charset=utf-8');
    expect(res.text).toBe(specText);
  });

  it('keeps the security headers and ignores a key that is not valid', async () => {
    const res = await t.api.get('/openapi.json').set('Authorization', 'Bearer not-a-key').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-powered-by']).toBeUndefined();
  });

  it('publishes the contract the server enforces, in both forms, when it is not the file', async () => {
    const document = structuredClone(loadContract().document);
    document.info.version = '1.1.0';
    const other = await createTestApi({ contract: contractFromDocument(document) });
    const json = await other.api.get('/openapi.json').expect(200);
    const yaml = await other.api.get('/openapi.yaml').buffer(true).expect(200);
    expect(json.body).toEqual(document);
    expect(YAML.parse(yaml.text)).toEqual(document);
  });

  it('is not part of the API: only GET, and under /v1 published as that version, without a key', async () => {
    expect((await t.api.get('/v1/openapi.json').expect(200)).body).toEqual(YAML.parse(specText));
    await t.api.post('/v1/openapi.json').expect(401);
    const res = await t.api.post('/openapi.json').expect(404);
    expect(res.body).toEqual({ code: 'route_not_found', status: 404, message: 'No operation at POST /openapi.json.' });
  });
});
