import { describe, expect, it } from 'vitest';
import { redactUrl } from '../../../src/http/middleware/request-log.js';
import { capturingLogger } from '../../support/log-capture.js';
import { createTestApi } from '../../support/test-app.js';

describe('the request log', () => {
  it('writes one line per request once it is answered: method, URL, status, time and the caller', async () => {
    const capture = capturingLogger();
    const t = await createTestApi({ logger: capture.logger });
    await t.api.get('/v1/pets?limit=5').set(t.auth).expect(200);
    await t.api.get('/v1/pets').expect(401);
    await new Promise((resolve) => setImmediate(resolve));
    const [ok, denied] = capture.lines.filter((line) => line['msg'] === 'request completed');
    expect(ok).toMatchObject({ req: { method: 'GET', url: '/v1/pets?limit=5' }, res: { statusCode: 200 }, keyId: 1, account: 'tester' });
    expect(ok!['responseTime']).toBeTypeOf('number');
    expect(denied).toMatchObject({ res: { statusCode: 401 } });
    expect(denied).not.toHaveProperty('keyId');
    expect(capture.text()).not.toContain(t.key.slice(4));
  });

  it.each([
    ['/v1/pets?access_token=psk_abc&limit=2', '/v1/pets?access_token=[redacted]&limit=2'],
    ['/v1/pets?limit=2&API_KEY=x', '/v1/pets?limit=2&API_KEY=[redacted]'],
    ['/v1/pets?token=a&key=b', '/v1/pets?token=[redacted]&key=[redacted]'],
    ['/v1/pets?monkey=1', '/v1/pets?monkey=1'],
  ])('redacts key-like query parameters: %s', (url, logged) => {
    expect(redactUrl(url)).toBe(logged);
  });
});
