import { IncomingMessage, ServerResponse } from 'node:http';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { serverFor } from '../../src/http/server.js';
import { createTestApi } from '../support/test-app.js';

describe('the HTTP server', () => {
  it("builds requests and responses with Express's prototypes from the start", async () => {
    const app = express();
    const seen: { request?: object; response?: object } = {};
    app.get('/', (req, res) => {
      seen.request = Object.getPrototypeOf(req) as object;
      seen.response = Object.getPrototypeOf(res) as object;
      res.end('ok');
    });
    const server = serverFor(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as { port: number };
      expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('ok');
    } finally {
      server.close();
    }
    expect(seen.request).toBe(app.request);
    expect(seen.response).toBe(app.response);
    // Still Node's own request and response underneath.
    expect(app.request).toBeInstanceOf(IncomingMessage);
    expect(app.response).toBeInstanceOf(ServerResponse);
  });

  it('serves the whole API, as production builds it (createHttpServer)', async () => {
    const t = await createTestApi();
    await t.api.post('/v1/pets').set(t.auth).send({ name: 'Rex', categoryId: 3 }).expect(201);
    await t.api.get('/v1/pets/1').set(t.auth).expect(200);
    await t.api.get('/healthz').expect(200);
  });
});
