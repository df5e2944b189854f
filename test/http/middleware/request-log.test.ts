import { describe, expect, it } from 'vitest';
import { redactUrl, urlRedactor } from '../../../src/http/middleware/request-log.js';
import { Metrics } from '../../../src/metrics/metrics.js';
import { backends } from '../../support/backends.js';
import { capturingLogger } from '../../support/log-capture.js';
import { createTestApi } from '../../support/test-app.js';

/** Lets the 'close' listeners of finished responses run. */
const settled = () => new Promise((resolve) => setImmediate(resolve));

describe.each(backends)('the request log [$name]', (backend) => {
  it('writes one line per request once it is answered: id, method, route, URL, status, duration and the caller', async () => {
    const capture = capturingLogger();
    const t = await createTestApi({ backend, logger: capture.logger });
    await t.api.get('/v1/pets?limit=5').set(t.auth).set('X-Request-Id', 'one').expect(200);
    await t.api.get('/v1/pets/12').set('X-Request-Id', 'two').expect(401);
    await t.api.get('/v1/pets/12').set(t.auth).set('X-Request-Id', 'three').expect(404);
    await t.api.post('/v1/pets').set(t.auth).set('X-Request-Id', 'four').send({ name: '' }).expect(400);
    await t.api.get('/elsewhere').set('X-Request-Id', 'five').expect(404);
    await settled();
    const lines = capture.lines.filter((line) => line['msg'] === 'request completed');
    expect(lines).toHaveLength(5);
    expect(lines[0]).toEqual({
      level: 30,
      time: expect.any(Number) as number,
      service: 'petstore-api',
      msg: 'request completed',
      reqId: 'one',
      method: 'GET',
      route: '/v1/pets',
      url: '/v1/pets?limit=5',
      status: 200,
      durationMs: expect.any(Number) as number,
      account: 'tester',
      keyId: 1,
    });
    expect(lines[1]).toMatchObject({ reqId: 'two', route: '/v1/pets/{petId}', status: 401, code: 'missing_api_key' });
    expect(lines[1]).not.toHaveProperty('keyId');
    expect(lines[2]).toMatchObject({ reqId: 'three', route: '/v1/pets/{petId}', status: 404, code: 'pet_not_found', keyId: 1 });
    expect(lines[3]).toMatchObject({ reqId: 'four', method: 'POST', route: '/v1/pets', status: 400, code: 'validation_failed' });
    expect(lines[4]).toMatchObject({ reqId: 'five', route: 'unmatched', url: '/elsewhere', status: 404, code: 'route_not_found' });
    expect(lines[0]!['durationMs']).toBeGreaterThan(0);
  });

  it('writes the method a request arrived with: HEAD, although it is served as GET', async () => {
    const capture = capturingLogger();
    const metrics = new Metrics({ processMetrics: false });
    const t = await createTestApi({ backend, logger: capture.logger, metrics });
    await t.api.head('/v1/pets').set(t.auth).set('X-Request-Id', 'head-1').expect(200);
    await t.api.head('/elsewhere').set('X-Request-Id', 'head-2').expect(404);
    await settled();
    const lines = capture.lines.filter((line) => line['msg'] === 'request completed');
    expect(lines).toEqual([
      expect.objectContaining({ reqId: 'head-1', method: 'HEAD', route: '/v1/pets', status: 200 }),
      expect.objectContaining({ reqId: 'head-2', method: 'HEAD', route: 'unmatched', status: 404, code: 'route_not_found' }),
    ]);
    expect(await metrics.registry.metrics()).toContain(
      'http_server_request_duration_seconds_count{http_request_method="HEAD",http_route="/v1/pets",http_response_status_code="200"} 1',
    );
  });

  it('writes server failures at level error, with their code', async () => {
    const capture = capturingLogger();
    const t = await createTestApi({
      backend,
      logger: capture.logger,
      handlers: { listPets: () => Promise.reject(new Error('boom')) },
    });
    await t.api.get('/v1/pets').set(t.auth).expect(500);
    await settled();
    expect(capture.lines.find((line) => line['msg'] === 'request failed')).toMatchObject({
      level: 50,
      status: 500,
      code: 'internal_error',
    });
  });

  it('never writes a key, wherever a client puts it: Authorization, the query string, the path, a body', async () => {
    const capture = capturingLogger('trace');
    const t = await createTestApi({ backend, logger: capture.logger });
    const secret = t.key.slice(4);
    await t.api.get('/v1/pets').set(t.auth).expect(200);
    await t.api.get('/v1/pets').set('Authorization', `Bearer ${t.key}x`).expect(401);
    await t.api.get('/v1/pets').set('Authorization', `Token ${t.key}`).expect(401);
    await t.api.get(`/v1/pets?api_key=${t.key}`).expect(401);
    await t.api.get(`/v1/pets?limit=2&mine=${t.key}`).set(t.auth).expect(400);
    await t.api.get(`/v1/pets/${t.key}`).set(t.auth).expect(400);
    await t.api.get(`/v1/${t.key}`).set(t.auth).expect(404);
    await t.api.post('/v1/pets').set(t.auth).send({ name: t.key, categoryId: 3 }).expect(201);
    await t.api.post('/v1/pets').set(t.auth).send({ name: 'Rex', categoryId: 3, key: t.key }).expect(400);
    await t.api.post('/v1/pets').set(t.auth).set('Content-Type', 'application/json').send(`{"name":"${t.key}`).expect(400);
    await settled();
    expect(capture.lines.filter((line) => line['msg'] === 'request completed')).toHaveLength(10);
    expect(capture.text()).not.toContain(secret);
    expect(capture.text()).toContain('[redacted]');
  });

  it('observes each request in the metrics, by method, route template and status', async () => {
    const metrics = new Metrics({ processMetrics: false });
    const t = await createTestApi({ backend, metrics });
    await t.api.get('/v1/pets/1').set(t.auth).expect(404);
    await t.api.get('/v1/pets/2').set(t.auth).expect(404);
    await settled();
    const text = await metrics.registry.metrics();
    expect(text).toContain(
      'http_server_request_duration_seconds_count{http_request_method="GET",http_route="/v1/pets/{petId}",http_response_status_code="404"} 2',
    );
    expect(text).toContain('http_server_error_responses_total{code="pet_not_found"} 2');
  });

  it('logs and counts updatePet and deletePet under their own method and the path’s route, 412 by its code', async () => {
    const capture = capturingLogger();
    const metrics = new Metrics({ processMetrics: false });
    const t = await createTestApi({ backend, logger: capture.logger, metrics });
    await t.storage.createPet({ name: 'Rex', categoryId: 3 });
    await t.api.patch('/v1/pets/1').set(t.auth).set('X-Request-Id', 'p1').send({ status: 'sold' }).expect(200);
    await t.api.patch('/v1/pets/1').set(t.auth).set('X-Request-Id', 'p2').set('If-Match', '"1-1"').send({}).expect(412);
    await t.api.delete('/v1/pets/1').set(t.auth).set('X-Request-Id', 'd1').expect(204);
    await settled();
    const lines = capture.lines.filter((line) => line['msg'] === 'request completed');
    expect(lines.map(({ reqId, method, route, status, code }) => ({ reqId, method, route, status, code }))).toEqual([
      { reqId: 'p1', method: 'PATCH', route: '/v1/pets/{petId}', status: 200, code: undefined },
      { reqId: 'p2', method: 'PATCH', route: '/v1/pets/{petId}', status: 412, code: 'precondition_failed' },
      { reqId: 'd1', method: 'DELETE', route: '/v1/pets/{petId}', status: 204, code: undefined },
    ]);
    const text = await metrics.registry.metrics();
    for (const [method, status] of [
      ['PATCH', 200],
      ['PATCH', 412],
      ['DELETE', 204],
    ]) {
      expect(text).toContain(
        `http_server_request_duration_seconds_count{http_request_method="${method}",http_route="/v1/pets/{petId}",http_response_status_code="${status}"} 1`,
      );
    }
    expect(text).toContain('http_server_error_responses_total{code="precondition_failed"} 1');
  });
});

describe('URL redaction', () => {
  it.each([
    ['/v1/pets?access_token=psk_abc&limit=2', '/v1/pets?access_token=[redacted]&limit=2'],
    ['/v1/pets?limit=2&API_KEY=x', '/v1/pets?limit=2&API_KEY=[redacted]'],
    ['/v1/pets?token=a&key=b', '/v1/pets?token=[redacted]&key=[redacted]'],
    ['/v1/pets?monkey=1', '/v1/pets?monkey=1'],
    ['/v1/pets?q=psk_AbC-d_e&limit=1', '/v1/pets?q=[redacted]&limit=1'],
    ['/v1/pets/psk_AbC-d_e', '/v1/pets/[redacted]'],
  ])('redacts secrets in %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});

describe("URL redaction of the document's apiKey-in-query parameters", () => {
  it('redacts the value of each, whatever its shape, and only those', () => {
    const redact = urlRedactor(['access', 'x.sig']);
    expect(redact('/v1/pets?access=not-a-psk-key&limit=2')).toBe('/v1/pets?access=[redacted]&limit=2');
    expect(redact('/v1/pets?limit=2&x.sig=s3cret')).toBe('/v1/pets?limit=2&x.sig=[redacted]');
    expect(redact('/v1/pets?xxsig=1&accessible=1')).toBe('/v1/pets?xxsig=1&accessible=1');
  });
});
