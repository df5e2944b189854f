import { IncomingMessage, ServerResponse } from 'node:http';
import { setFlagsFromString } from 'node:v8';
import express from 'express';
import { describe, expect, it } from 'vitest';
import { expressApp } from '../../../src/http/express-app.js';
import { expressMessages } from '../../../src/http/internals/express-prototypes.js';
import { plainServer } from '../../support/plain-server.js';
import { createTestApi } from '../../support/test-app.js';

// V8's own answer to "are this object's properties in fast mode (a hidden class), not a dictionary?".
setFlagsFromString('--allow-natives-syntax');
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- natives syntax parses only from source text made after the flag
const hasFastProperties = new Function('object', 'return %HasFastProperties(object)') as (object: object) => boolean;

/** Whether each request and response of `send` was still in fast mode when its response finished. */
async function fastModes(server: import('node:http').Server, send: () => Promise<void>): Promise<boolean[]> {
  const modes: boolean[] = [];
  const observe = (req: IncomingMessage, res: ServerResponse) =>
    res.once('finish', () => modes.push(hasFastProperties(req), hasFastProperties(res)));
  server.prependListener('request', observe);
  try {
    // Enough requests for V8 to finish sizing the objects (in-object slack tracking).
    for (let i = 0; i < 20; i++) await send();
  } finally {
    server.off('request', observe);
  }
  return modes;
}

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

  it("V8 sizes a plain constructor's objects by its own `this.x =` assignments: a bare wrapper's responses are dictionaries", async () => {
    const app = express();
    app.get('/', (_req, res) => {
      res.end('ok');
    });
    function Response(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>) {
      ServerResponse.apply(this, args);
    }
    Response.prototype = app.response;
    const { server, origin } = await plainServer((req, res) => void app(req, res), {
      ServerResponse: Response as unknown as typeof ServerResponse,
    });
    const modes = await fastModes(server, async () => void (await (await fetch(`${origin}/`)).text()));
    // Every response: the reason expressMessages sizes its constructors.
    expect(modes.filter((_fast, index) => index % 2 === 1)).not.toContain(true);
  });

  it('keeps every request and response of a getPet and a createPet in fast mode to its end', async () => {
    const { server, origin, auth } = await createTestApi();
    const created = await fetch(`${origin}/v1/pets`, {
      method: 'POST',
      headers: { ...auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
    });
    const { id } = (await created.json()) as { id: number };
    const modes = await fastModes(server, async () => {
      const answer = await fetch(`${origin}/v1/pets/${id}`, { headers: auth });
      expect(answer.status).toBe(200);
      await answer.arrayBuffer();
    });
    expect(modes).not.toContain(false);
    const creates = await fastModes(server, async () => {
      const answer = await fetch(`${origin}/v1/pets`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body: JSON.stringify({ name: 'Rex', categoryId: 1 }),
      });
      expect(answer.status).toBe(201);
      await answer.arrayBuffer();
    });
    expect(creates).not.toContain(false);
  });
});
