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
 * later property access on req and res slow in V8. Built this way, that change is a no-op.
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
