import { IncomingMessage, ServerResponse } from 'node:http';
import type { Express } from 'express';

/**
 * Relies on: Express making each request and response it handles an instance of `app.request` and
 * `app.response` by setting their prototypes as they arrive (app.handle, Object.setPrototypeOf), a
 * no-op when they already have them; and on those objects inheriting from node:http's
 * IncomingMessage and ServerResponse.
 *
 * Why: an object whose prototype changes after it was built takes a new hidden class, which leaves
 * every later property access on req and res slow in V8. Classes for createServer (its public
 * IncomingMessage and ServerResponse options) build them with the app's prototypes from the start.
 */
export function expressMessages(app: Express): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  function Request(this: IncomingMessage, ...args: ConstructorParameters<typeof IncomingMessage>) {
    IncomingMessage.apply(this, args);
  }
  Request.prototype = app.request;
  function Response(this: ServerResponse, ...args: ConstructorParameters<typeof ServerResponse>) {
    ServerResponse.apply(this, args);
  }
  Response.prototype = app.response;
  return {
    IncomingMessage: Request as unknown as typeof IncomingMessage,
    ServerResponse: Response as unknown as typeof ServerResponse,
  };
}
