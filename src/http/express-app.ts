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
