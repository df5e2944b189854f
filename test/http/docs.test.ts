import { runInNewContext } from 'node:vm';
import { beforeEach, describe, expect, it } from 'vitest';
import { createTestApi, type TestApi } from '../support/test-app.js';

describe('the API reference at /docs', () => {
  let t: TestApi;
  beforeEach(async () => {
    t = await createTestApi();
  });

  it('serves its page without a key, under a Content-Security-Policy that allows only this origin', async () => {
    for (const path of ['/docs', '/docs/']) {
      const res = await t.api.get(path).expect(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.text).toContain('<script src="/docs/assets/swagger-ui-bundle.js"></script>');
      expect(res.headers['content-security-policy']).toContain("default-src 'none'; script-src 'self'");
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('starts swagger-ui on /openapi.json (at /v1/docs on /v1/openapi.json) with the online validator off and the key kept', async () => {
    const res = await t.api.get('/docs/init.js').expect(200);
    expect(res.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    // The page's function, run on its own: what the page at each address loads.
    const specPathOf = runInNewContext(`(${/^function specPathOf[^]*?^}/m.exec(res.text)![0]})`) as (page: string) => string;
    expect(['/docs', '/docs/', '/v1/docs', '/v2/docs', '/v1/docs/', '/v1.0/docs'].map(specPathOf)).toEqual([
      '/openapi.json',
      '/openapi.json',
      '/v1/openapi.json',
      '/v2/openapi.json',
      '/openapi.json',
      '/openapi.json',
    ]);
    expect(res.text).toContain('SPEC_PATH = specPathOf(window.location.pathname)');
    expect(res.text).toContain('validatorUrl: null');
    expect(res.text).toContain('persistAuthorization: true');
  });

  it("serves the swagger-ui files from this server, with the API's headers", async () => {
    const css = await t.api.get('/docs/assets/swagger-ui.css').expect(200);
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    const bundle = await t.api.get('/docs/assets/swagger-ui-bundle.js').expect(200);
    expect(bundle.text).toContain('SwaggerUIBundle');
    for (const res of [css, bundle]) {
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['etag']).toBeUndefined();
    }
  });

  it.each([
    '/docs/assets/swagger-initializer.js',
    '/docs/assets/index.html',
    '/docs/assets/package.json',
    '/docs/assets/',
    '/docs/nothing.js',
  ])('answers 404 for %s, which the page does not use', async (path) => {
    const res = await t.api.get(path).expect(404);
    expect(res.body).toEqual({ code: 'route_not_found', status: 404, message: `No operation at GET ${path}.` });
  });
});
