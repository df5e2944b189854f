import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closeAfterLastResponse } from '../../../src/http/internals/destroy-soon.js';
import { startReading, stopHttpParsing } from '../../../src/http/internals/http-parser.js';
import { plainServer } from '../../support/plain-server.js';
import { RawConnection } from '../../support/raw-http.js';

describe("node:http's parser, detached from a connection", () => {
  it("node:http still parses a server connection through one 'data' listener, socketOnData", async () => {
    const { server, origin } = await plainServer((_req, res) => res.end());
    const listeners = new Promise<string[]>((resolve) =>
      server.once('connection', (socket: Socket) => resolve(socket.listeners('data').map((listener) => listener.name))),
    );
    await RawConnection.open(origin);
    expect(await listeners).toEqual(['bound socketOnData']);
  });

  it('a server connection still has a _handle with reading and readStart()', async () => {
    const { server, origin } = await plainServer((_req, res) => res.end());
    const handle = new Promise<unknown>((resolve) =>
      server.once('connection', (socket: Socket & { _handle?: unknown }) => resolve(socket._handle)),
    );
    await RawConnection.open(origin);
    expect(await handle).toMatchObject({ reading: expect.any(Boolean) as unknown, readStart: expect.any(Function) as unknown });
  });

  it("once its 'data' listeners are removed, node:http parses nothing more on the connection", async () => {
    const urls: string[] = [];
    let read = 0;
    const { origin } = await plainServer((req, res) => {
      urls.push(req.url!);
      res.end('answered', () => {
        stopHttpParsing(req.socket);
        req.socket.on('data', (chunk: Buffer) => (read += chunk.length));
        req.socket.once('end', () => req.socket.destroy());
      });
    });
    const connection = await RawConnection.open(origin);
    connection.write('GET /1 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect((await connection.response()).text).toBe('answered');
    const second = 'GET /2 HTTP/1.1\r\nHost: x\r\n\r\n';
    connection.socket.end(second);
    await connection.closed;
    expect(urls).toEqual(['/1']);
    expect(read).toBe(second.length);
  });

  it('node:http still stops reading a connection whose body is left unread at its handle: started again there, the client can send it all', async () => {
    const { server, origin } = await plainServer((_req, res) =>
      res.writeHead(413, { Connection: 'close', 'Content-Length': '7' }).end('refused'),
    );
    server.on('connection', (socket: Socket) =>
      closeAfterLastResponse(socket, () => {
        stopHttpParsing(socket);
        socket.resume();
        startReading(socket);
        socket.end();
        socket.once('end', () => socket.destroy());
      }),
    );
    const connection = await RawConnection.open(origin);
    connection.socket.pause();
    // Far more than the kernel's buffers hold: it is only sent in full if the server reads it.
    const size = 32 * 1024 * 1024;
    connection.write(`POST / HTTP/1.1\r\nHost: x\r\nContent-Length: ${size}\r\n\r\n`);
    await new Promise<void>((resolve, reject) =>
      connection.socket.write(Buffer.alloc(size, 0x20), (error) => (error ? reject(error) : resolve())),
    );
    connection.socket.resume();
    expect((await connection.response()).text).toBe('refused');
    connection.socket.end();
    await connection.closed;
  });
});
