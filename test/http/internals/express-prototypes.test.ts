import { IncomingMessage, ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import { runInThisContext } from 'node:vm';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { expressApp } from '../../../src/http/express-app.js';
import { expressMessages } from '../../../src/http/internals/express-prototypes.js';
import { plainServer } from '../../support/plain-server.js';

describe("requests and responses built with Express's prototypes", () => {
  it("Express still makes each request and response an instance of app.request and app.response, which are node:http's", async () => {
    const app = express();
    let seen: object[] = [];
    app.get('/', (req, res) => {
      seen = [Object.getPrototypeOf(req) as object, Object.getPrototypeOf(res) as object];
      res.end('ok');
    });
    const { origin } = await plainServer(app);
    expect(await (await fetch(`${origin}/`)).text()).toBe('ok');
    expect(seen).toEqual([app.request, app.response]);
    expect(app.request).toBeInstanceOf(IncomingMessage);
    expect(app.response).toBeInstanceOf(ServerResponse);
  });

  it("builds them with the app's prototypes before Express sees them, and the app serves them", async () => {
    const app = expressApp();
    app.get('/probe', (req, res) => {
      res.json({ query: req.query });
    });
    let arrived: object[] = [];
    const messages = expressMessages(app);
    const { origin } = await plainServer((req, res) => {
      arrived = [Object.getPrototypeOf(req) as object, Object.getPrototypeOf(res) as object];
      void app(req, res);
    }, messages);
    expect(await (await fetch(`${origin}/probe?a=1`)).json()).toEqual({ query: { a: '1' } });
    expect(arrived).toEqual([app.request, app.response]);
  });

  it("keeps them in V8's fast mode through Express's routing, as node:http alone keeps its own", async () => {
    // V8's own answer to whether an object keeps fast properties (a hidden class) or fell back to a
    // dictionary; natives syntax allowed while the function is compiled (now: V8 compiles lazily).
    setFlagsFromString('--allow-natives-syntax');
    const hasFastProperties = runInThisContext('(object) => %HasFastProperties(object)') as (object: object) => boolean;
    hasFastProperties({});
    setFlagsFromString('--no-allow-natives-syntax');
    const app = expressApp();
    let fast: boolean[] = [];
    app.get('/probe', (req, res) => {
      // After the router's additions to both, as the service's handlers see them.
      fast = [hasFastProperties(req), hasFastProperties(res)];
      res.end('ok');
    });
    const { origin } = await plainServer((req, res) => void app(req, res), expressMessages(app));
    expect(await (await fetch(`${origin}/probe`)).text()).toBe('ok');
    expect(fast).toEqual([true, true]);
  });
});
