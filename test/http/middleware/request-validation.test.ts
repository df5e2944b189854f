import express from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { loadContract } from '../../../src/contract/contract.js';
import { parseJsonBodies, validateRequests } from '../../../src/http/middleware/request-validation.js';

const contract = loadContract();

function echoBodies() {
  const app = express();
  app.use(...parseJsonBodies(contract));
  app.use((req, res) => void res.json({ body: req.body as unknown }));
  app.use(
    ((error: { code?: string; type?: string; status?: number }, _req, res, _next) =>
      void res.status(error.status ?? 500).json({ code: error.code, type: error.type })) as express.ErrorRequestHandler,
  );
  return app;
}

describe('request bodies and validation', () => {
  it('parses JSON bodies in UTF-8', async () => {
    const res = await request(echoBodies()).post('/').set('Content-Type', 'application/json; charset=utf-8').send('{"name":"Zoë"}');
    expect(res.body).toEqual({ body: { name: 'Zoë' } });
  });

  it.each(['utf-16', 'iso-8859-1', 'us-ascii'])('refuses a body in charset %s as unsupported_media_type', async (charset) => {
    const res = await request(echoBodies()).post('/').set('Content-Type', `application/json; charset=${charset}`).send('{}');
    expect(res.body).toEqual({ code: 'unsupported_media_type' });
  });

  it("refuses a body over the spec's x-max-request-body-bytes", async () => {
    const res = await request(echoBodies())
      .post('/')
      .set('Content-Type', 'application/json')
      .send(JSON.stringify({ name: 'x'.repeat(contract.maxRequestBodyBytes) }));
    expect(res.body).toEqual({ type: 'entity.too.large' });
  });

  it("leaves out the validator's steps that do nothing for this app", () => {
    const names = validateRequests(contract).map((step) => step.name);
    expect(names).not.toContain('securityMiddleware');
    expect(names).not.toContain('pathParamsMiddleware');
    expect(names).toContain('requestMiddleware');
  });
});
