import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { closeAfterLastResponse } from '../../../src/http/internals/destroy-soon.js';
import { plainServer } from '../../support/plain-server.js';
import { RawConnection } from '../../support/raw-http.js';

describe("node:http's socket.destroySoon()", () => {
  it("node:http still closes a connection after its last response through the socket's own destroySoon()", async () => {
    const { server, origin } = await plainServer((_req, res) => res.end('answered'));
    let calls = 0;
    server.on('connection', (socket: Socket) =>
      closeAfterLastResponse(socket, () => {
        calls++;
        socket.destroy();
      }),
    );
    const connection = await RawConnection.open(origin);
    connection.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
    expect((await connection.response()).text).toBe('answered');
    expect(calls).toBe(0);
    connection.write('GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect((await connection.response()).text).toBe('answered');
    await connection.closed;
    expect(calls).toBe(1);
  });
});
