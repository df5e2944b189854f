import { ServerResponse, type IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closeConnectionAfter, responseOnSocket } from '../../../src/http/internals/response-socket.js';
import { plainServer } from '../../support/plain-server.js';
import { RawConnection } from '../../support/raw-http.js';

describe("node:http's ServerResponse, closing and assigned by hand", () => {
  it('ServerResponse.shouldKeepAlive = false still makes the response say Connection: close and close', async () => {
    const { origin } = await plainServer((_req, res) => {
      closeConnectionAfter(res);
      res.end('answered');
    });
    const connection = await RawConnection.open(origin);
    connection.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    const res = await connection.response();
    expect([res.text, res.headers['connection']]).toEqual(['answered', 'close']);
    await connection.closed;
  });

  it("ServerResponse.assignSocket() still lets a response built by hand answer on a connection Node's server handed over", async () => {
    const { server, origin } = await plainServer((_req, res) => res.end('not here'));
    server.on('connect', (req: IncomingMessage, socket: Socket) => {
      const res = responseOnSocket(ServerResponse, req, socket);
      res.once('finish', () => socket.end());
      res.end('by hand');
    });
    const connection = await RawConnection.open(origin);
    connection.write('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
    const res = await connection.response();
    expect([res.status, res.text, res.headers['connection']]).toEqual([200, 'by hand', 'close']);
    await connection.closed;
  });
});
