import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { series } from '../../src/http/series.js';

/** An app that runs `steps` as one layer, then answers with what they left in res.locals.seen. */
function appWith(...steps: RequestHandler[]) {
  const app = express();
  app.use(series(...steps));
  app.use((_req, res) => void res.json({ seen: res.locals['seen'] as unknown }));
  app.use(((error: Error, _req, res, _next) => void res.status(500).json({ error: error.message })) as ErrorRequestHandler);
  return app;
}

const record =
  (name: string): RequestHandler =>
  (_req, res, next) => {
    res.locals['seen'] = [...((res.locals['seen'] as string[] | undefined) ?? []), name];
    next();
  };

describe('series', () => {
  it('runs the steps in order, then goes on to the next layer', async () => {
    const res = await request(appWith(record('a'), record('b'), record('c'))).get('/');
    expect(res.body).toEqual({ seen: ['a', 'b', 'c'] });
  });

  it('waits for a step that calls next later', async () => {
    const later: RequestHandler = (_req, _res, next) => void setImmediate(next);
    const res = await request(appWith(record('a'), later, record('b'))).get('/');
    expect(res.body).toEqual({ seen: ['a', 'b'] });
  });

  it.each([
    [
      'thrown',
      () => {
        throw new Error('thrown');
      },
    ],
    ['passed to next', ((_req, _res, next) => next(new Error('passed to next'))) as RequestHandler],
    ['a rejected promise', (async () => Promise.reject(new Error('a rejected promise'))) as RequestHandler],
  ])('passes an error %s to the error handler and runs no later step', async (label, failing) => {
    const res = await request(appWith(record('a'), failing, record('b'))).get('/');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ error: label });
  });

  it('lets a step answer by itself, without calling next', async () => {
    const answer: RequestHandler = (_req, res) => void res.status(204).end();
    const res = await request(appWith(record('a'), answer, record('b'))).get('/');
    expect(res.status).toBe(204);
  });
});
