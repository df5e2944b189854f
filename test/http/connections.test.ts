import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Connections } from '../../src/http/connections.js';
import { plainServer } from '../support/plain-server.js';
import { RawConnection } from '../support/raw-http.js';

describe('Connections', () => {
  it('gives the response going out next on a connection: pipelined ones in turn, none once all are written', async () => {
    // Attached once the server exists, before the connection is made; read by its listener.
    const tracked: { responses?: Connections } = {};
    const arrived: ServerResponse[] = [];
    let socket: Socket | undefined;
    const seen: Array<ServerResponse | undefined> = [];
    let allSeen!: () => void;
    const looked = new Promise<void>((resolve) => (allSeen = resolve));
    const { server, origin } = await plainServer((req, res) => {
      socket = req.socket;
      arrived.push(res);
      // The two pipelined requests have both arrived: answer them, looking at the queue each time a
      // response has finished ('finish' listeners run in the order they were added, the tracker's
      // first; end()'s callback is not tied to 'finish' on every Node line).
      if (arrived.length < 2) return;
      seen.push(tracked.responses!.current(socket));
      arrived[0]!.once('finish', () => {
        seen.push(tracked.responses!.current(socket!));
        arrived[1]!.once('finish', () => {
          seen.push(tracked.responses!.current(socket!));
          allSeen();
        });
        arrived[1]!.end('second');
      });
      arrived[0]!.end('first');
    });
    tracked.responses = Connections.of(server);
    const connection = await RawConnection.open(origin);
    connection.write('GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect((await connection.response()).text).toBe('first');
    expect((await connection.response()).text).toBe('second');
    await looked;
    expect(seen).toEqual([arrived[0], arrived[1], undefined]);
    expect(tracked.responses.current(socket!)).toBeUndefined();
  });
});

describe('Connections.of', () => {
  it('is one tracker per server, which says when a connection has no open response left', async () => {
    const { server, origin } = await plainServer((_req, res) => res.end('done'));
    const connections = Connections.of(server);
    expect(Connections.of(server)).toBe(connections);
    const idle: Array<{ open: number; atRest: number; read: number }> = [];
    let wentIdle!: () => void;
    const idleSeen = new Promise<void>((resolve) => (wentIdle = resolve));
    connections.onIdle((socket) => {
      idle.push({
        open: connections.responsesOn(socket).length,
        atRest: connections.bytesAtRest(socket),
        read: (socket as Socket).bytesRead,
      });
      wentIdle();
    });
    const connection = await RawConnection.open(origin);
    const request = 'GET / HTTP/1.1\r\nHost: x\r\n\r\n';
    connection.write(request);
    expect((await connection.response()).text).toBe('done');
    await idleSeen;
    const length = Buffer.byteLength(request);
    expect(idle).toEqual([{ open: 0, atRest: length, read: length }]);
    expect([...connections.sockets()]).toHaveLength(1);
  });
});
