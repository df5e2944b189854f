import { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express } from 'express';

/** An Express app with this service's settings, before any middleware. */
export function expressApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  // Responses are no-store; a hashed ETag of every body would only cost time. A pet's ETag is its
  // version, which its handlers set.
  app.disable('etag');
  app.set('query parser', 'simple');
  // Read by the app's router and by express-openapi-validator's route lookup alike.
  app.enable('case sensitive routing');
  app.enable('strict routing');
  return app;
}

/**
 * Classes for node:http's createServer that build requests and responses with the app's prototypes
 * from the start. Express sets those prototypes on every request as it arrives (app.handle); an
 * object whose prototype changes after it was built takes a new hidden class, which leaves every
 * later property access on req and res slow in V8. Built this way, that change is a no-op. Each
 * is built by Node's own constructor with the wrapper as new.target (Reflect.construct), so that V8
 * sizes it as it sizes Node's own (room in the object for the constructor's fields): built by a
 * plain wrapper it would get room for none, and the fields and Express's additions would turn it
 * into a slow dictionary-mode object on every request.
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
