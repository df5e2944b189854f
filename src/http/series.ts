import type { NextFunction, Request, RequestHandler, Response } from 'express';

/**
 * Middleware that runs the given middleware one after the other as one router layer. Express's
 * router pays per layer: a match of the path, and for a layer mounted at a path a rewrite of
 * req.url that the next layer's match parses again. Errors, thrown, passed to next or from a
 * rejected promise, go on to Express as they would from a layer of their own.
 */
export function series(...handlers: RequestHandler[]): RequestHandler {
  return (req: Request, res: Response, done: NextFunction) => {
    let index = 0;
    const next = (error?: unknown): void => {
      if (error !== undefined && error !== null) return done(error);
      const handler = handlers[index++];
      if (!handler) return done();
      try {
        const result: unknown = handler(req, res, next);
        if (result instanceof Promise) result.catch((rejection: unknown) => done(rejection ?? new Error('Rejected promise')));
      } catch (thrown) {
        done(thrown);
      }
    };
    next();
  };
}
