import { IncomingMessage, ServerResponse } from 'node:http';
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
});
