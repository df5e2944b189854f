import { beforeAll, describe, expect, it } from 'vitest';
import { contractFromDocument, loadContract } from '../../../src/contract/contract.js';
import type { OpenApiDocument } from '../../../src/contract/spec.js';
import { RawConnection } from '../../support/raw-http.js';
import { createTestApi, type TestApi } from '../../support/test-app.js';

/** openapi.yaml with every error response declared as application/problem+json instead of application/json. */
function problemDocument(): OpenApiDocument {
  const document = structuredClone(loadContract().document);
  for (const response of Object.values(document.components['responses'] as Record<string, { content?: Record<string, unknown> }>)) {
    const json = response.content?.['application/json'];
    if (json && JSON.stringify(json).includes('#/components/schemas/Error')) response.content = { 'application/problem+json': json };
  }
  return document;
}

const PROBLEM = 'application/problem+json; charset=utf-8';

describe("every error in the document's own format: a document whose errors are application/problem+json", () => {
  let t: TestApi;
  beforeAll(async () => {
    t = await createTestApi({ contract: contractFromDocument(problemDocument()) });
  });

  it.each([
    ['401, before anything else', '/v1/nowhere', {}, 401, 'missing_api_key'],
    ['404', '/v1/nowhere', 'auth', 404, 'route_not_found'],
    ['400', '/v1/pets?limit=0', 'auth', 400, 'validation_failed'],
  ] as const)('answers a %s as a problem document', async (_, path, auth, status, code) => {
    const res = await fetch(`${t.origin}${path}`, { headers: auth === 'auth' ? t.auth : {} });
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toBe(PROBLEM);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'about:blank', status, code });
    expect(body['title']).toEqual(expect.any(String));
    expect(body['detail']).toEqual(expect.any(String));
  });

  it('answers below Express (a request target over the limit: 414) in the same format', async () => {
    const connection = await RawConnection.open(t.origin);
    try {
      connection.write(`GET /v1/pets?${'a'.repeat(9000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
      const res = await connection.response();
      expect(res.status).toBe(414);
      expect(res.headers['content-type']).toBe(PROBLEM);
      expect(JSON.parse(res.text)).toMatchObject({ type: 'about:blank', title: 'URI Too Long', status: 414, code: 'uri_too_long' });
    } finally {
      connection.close();
    }
  });
});
