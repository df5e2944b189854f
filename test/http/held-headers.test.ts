import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import express, { type Express, type RequestHandler } from 'express';
import { expressApp } from '../../src/http/express-app.js';
import { afterEach, describe, expect, it } from 'vitest';
import { holdHeaders, holdHeadersUntilWritten, writeHeadAfter } from '../../src/http/held-headers.js';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** The head of the answer an app with held headers gives `GET /`, line by line, its Date blanked. */
async function headOf(...steps: RequestHandler[]): Promise<string[]> {
  return headOfApp(expressApp(), ...steps);
}

async function headOfApp(app: Express, ...steps: RequestHandler[]): Promise<string[]> {
  holdHeadersUntilWritten(app);
  app.get('/', ...steps);
  server = createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const socket = connect((server.address() as AddressInfo).port, '127.0.0.1');
  socket.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  let text = '';
  for await (const chunk of socket) text += String(chunk);
  return text
    .slice(0, text.indexOf('\r\n\r\n'))
    .split('\r\n')
    .map((line) => (line.startsWith('Date: ') ? 'Date: -' : line));
}

const hold =
  (...fields: string[]): RequestHandler =>
  (_req, res, next) => {
    holdHeaders(res, fields);
    next();
  };

describe('header fields held until the one writeHead', () => {
  it("are written first, in the order held, then the answer's own, in one head", async () => {
    const head = await headOf(
      hold('X-Request-Id', 'r1'),
      hold('X-Content-Type-Options', 'nosniff', 'Cache-Control', 'no-store'),
      (_req, res) => {
        writeHeadAfter(res, 200, ['ETag', '"1-1"', 'Content-Type', 'application/json', 'Content-Length', 2]);
        res.end('{}');
      },
    );
    expect(head).toEqual([
      'HTTP/1.1 200 OK',
      'X-Request-Id: r1',
      'X-Content-Type-Options: nosniff',
      'Cache-Control: no-store',
      'ETag: "1-1"',
      'Content-Type: application/json',
      'Content-Length: 2',
      'Date: -',
      'Connection: close',
    ]);
  });

  it('are sent once per holding, a field the answer also gives included, as appending would', async () => {
    const head = await headOf(hold('Link', '<a>'), hold('Link', '<b>'), (_req, res) => {
      writeHeadAfter(res, 204, ['Link', '<c>']);
      res.end();
    });
    expect(head.filter((line) => line.startsWith('Link'))).toEqual(['Link: <a>', 'Link: <b>', 'Link: <c>']);
  });

  it('are seen by a step that reads the headers, and replaced by one that sets the field', async () => {
    let seen: unknown;
    const head = await headOf(hold('X-Request-Id', 'r1', 'Cache-Control', 'no-store'), (_req, res) => {
      seen = res.getHeader('x-request-id');
      res.setHeader('Cache-Control', 'public');
      res.status(404).send('gone');
    });
    expect(seen).toBe('r1');
    expect(head.slice(0, 3)).toEqual(['HTTP/1.1 404 Not Found', 'X-Request-Id: r1', 'Cache-Control: public']);
    expect(head.filter((line) => line.startsWith('Cache-Control'))).toHaveLength(1);
  });

  it("are written after the fields set on the response, with the answer's, once a step set one", async () => {
    const head = await headOf(
      hold('X-Request-Id', 'r1'),
      (_req, res, next) => {
        res.setHeader('RateLimit', 'r=1');
        next();
      },
      hold('Link', '<a>'),
      (_req, res) => {
        writeHeadAfter(res, 200, ['Link', '<b>', 'Content-Length', 0]);
        res.end();
      },
    );
    expect(head.slice(0, 6)).toEqual([
      'HTTP/1.1 200 OK',
      'X-Request-Id: r1',
      'RateLimit: r=1',
      'Link: <a>',
      'Link: <b>',
      'Content-Length: 0',
    ]);
  });

  it('are written after a field set below the app, before any step held one', async () => {
    // Express sets X-Powered-By, where enabled, before the response has the app's prototype.
    const head = await headOfApp(express(), hold('Link', '<a>'), hold('Link', '<b>'), (_req, res) => {
      writeHeadAfter(res, 204, ['Link', '<c>']);
      res.end();
    });
    expect(head.slice(0, 5)).toEqual(['HTTP/1.1 204 No Content', 'X-Powered-By: Express', 'Link: <a>', 'Link: <b>', 'Link: <c>']);
  });

  it("reach Express's own answers, written without writeHeadAfter", async () => {
    const head = await headOf(hold('X-Request-Id', 'r1'), (_req, res) => {
      res.json({ ok: true });
    });
    expect(head.slice(0, 3)).toEqual(['HTTP/1.1 200 OK', 'X-Request-Id: r1', 'Content-Type: application/json; charset=utf-8']);
  });
});
