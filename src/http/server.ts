import { IncomingMessage, ServerResponse, createServer, type Server } from 'node:http';
import type { Express } from 'express';
import { createApp, type AppOptions } from './app.js';

/**
 * The HTTP server of the service, as production runs it and as the in-process tests build it: the
 * app on a node:http server whose requests and responses are built with Express's prototypes from
 * the start. Express sets those prototypes on every request as it arrives (app.handle); an object
 * whose prototype changes after it was built takes a new hidden class, which leaves every later
 * property access on req and res slow in V8. Built this way, that change is a no-op.
 */
export function createHttpServer(options: AppOptions): Server {
  return serverFor(createApp(options));
}

export function serverFor(app: Express): Server {
  function Request(this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>) {
    IncomingMessage.apply(this, args);
  }
  Request.prototype = app.request;
  function Response(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>) {
    ServerResponse.apply(this, args);
  }
  Response.prototype = app.response;
  return createServer(
    {
      IncomingMessage: Request as unknown as typeof IncomingMessage,
      ServerResponse: Response as unknown as typeof ServerResponse,
    },
    app,
  );
}
