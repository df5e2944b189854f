import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { ConnectionResponses } from '../../src/http/connection-responses.js';
import { plainServer } from '../support/plain-server.js';
import { RawConnection } from '../support/raw-http.js';

describe('ConnectionResponses', () => {
  it('gives the response going out next on a connection: pipelined ones in turn, none once all are written', async () => {
    const responses = new ConnectionResponses();
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
      seen.push(responses.current(socket));
      arrived[0]!.once('finish', () => {
        seen.push(responses.current(socket!));
        arrived[1]!.once('finish', () => {
          seen.push(responses.current(socket!));
          allSeen();
        });
        arrived[1]!.end('second');
      });
      arrived[0]!.end('first');
    });
    responses.attach(server);
    const connection = await RawConnection.open(origin);
    connection.write('GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n');
    expect((await connection.response()).text).toBe('first');
    expect((await connection.response()).text).toBe('second');
    await looked;
    expect(seen).toEqual([arrived[0], arrived[1], undefined]);
    expect(responses.current(socket!)).toBeUndefined();
  });
});
