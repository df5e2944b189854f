import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { expressApp, expressMessages } from '../../src/http/express-app.js';

describe('the Express app', () => {
  it("has the service's settings: exact routing, simple query strings, no ETag or X-Powered-By", () => {
    const app = expressApp();
    expect(app.enabled('case sensitive routing')).toBe(true);
    expect(app.enabled('strict routing')).toBe(true);
    expect(app.get('query parser')).toBe('simple');
    expect(app.enabled('etag')).toBe(false);
    expect(app.enabled('x-powered-by')).toBe(false);
  });

  it("serves requests and responses built with the app's prototypes from the start", async () => {
    const app = expressApp();
    app.get('/probe', (req, res) => {
      res.json({ query: req.query });
    });
    // What node:http hands over, before Express has seen it (Express would set the prototypes itself).
    let arrived: { req: IncomingMessage; res: ServerResponse } | undefined;
    const server = createServer(expressMessages(app), (req, res) => {
      arrived = { req: Object.getPrototypeOf(req) as IncomingMessage, res: Object.getPrototypeOf(res) as ServerResponse };
      app(req, res);
    }).listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await new Promise<string>((resolve, reject) => {
        request({ host: '127.0.0.1', port, path: '/probe?a=1' }, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve(body));
        })
          .on('error', reject)
          .end();
      });
      expect(JSON.parse(answer)).toEqual({ query: { a: '1' } });
      expect(arrived?.req).toBe(app.request);
      expect(arrived?.res).toBe(app.response);
    } finally {
      server.close();
    }
  });
});
