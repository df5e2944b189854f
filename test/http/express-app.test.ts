import { once } from 'node:events';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInThisContext } from 'node:vm';
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

  it("serves requests and responses built with the app's prototypes from the start, kept in V8's fast mode", async () => {
    const app = expressApp();
    // V8's own answer to whether an object keeps fast properties (a hidden class) or fell back to a
    // dictionary; natives syntax enabled for the function compiled here only.
    setFlagsFromString('--allow-natives-syntax');
    const hasFastProperties = runInThisContext('(object) => %HasFastProperties(object)') as (object: object) => boolean;
    hasFastProperties({}); // compiled now (V8 compiles lazily), while the syntax is allowed
    setFlagsFromString('--no-allow-natives-syntax');
    let fast: { req: boolean; res: boolean } | undefined;
    app.get('/probe', (req, res) => {
      // After Express's router and its additions to both, as the service's handlers see them.
      fast = { req: hasFastProperties(req), res: hasFastProperties(res) };
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
      expect(fast).toEqual({ req: true, res: true });
    } finally {
      server.close();
    }
  });
});
