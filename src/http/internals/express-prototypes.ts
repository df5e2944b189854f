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
 * Each is built by Node's own constructor with the wrapper as new.target (Reflect.construct), so
 * that V8 sizes it as it sizes Node's own (room in the object for the constructor's fields): built
 * by a plain wrapper it would get room for none, and the fields and Express's additions would turn
 * it into a slow dictionary-mode object on every request.
 */
export function expressMessages(app: Express): { IncomingMessage: typeof IncomingMessage; ServerResponse: typeof ServerResponse } {
  function Request(...args: ConstructorParameters<typeof IncomingMessage>): IncomingMessage {
    return Reflect.construct(IncomingMessage, args, Request) as IncomingMessage;
  }
  Request.prototype = app.request;
  function Response(...args: ConstructorParameters<typeof ServerResponse>): ServerResponse {
    return Reflect.construct(ServerResponse, args, Response) as ServerResponse;
  }
  Response.prototype = app.response;
  return {
    IncomingMessage: Request as unknown as typeof IncomingMessage,
    ServerResponse: Response as unknown as typeof ServerResponse,
  };
}
