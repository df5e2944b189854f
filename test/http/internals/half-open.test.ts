import type { Server } from 'node:http';
import { describe, expect, it } from 'vitest';
import { answerHalfClosedConnections } from '../../../src/http/internals/half-open.js';
import { plainServer } from '../../support/plain-server.js';
import { RawConnection } from '../../support/raw-http.js';

/** A server that answers each request once its client has ended its side, as one that waits on storage may. */
const answerLater = () => plainServer((req, res) => void req.socket.once('end', () => res.end('answered')));

/** What a client that sends one request and then half-closes receives. */
async function halfClosedRequest(origin: string): Promise<string> {
  const connection = await RawConnection.open(origin);
  connection.socket.end('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
  return connection.response().then(
    (res) => res.text,
    () => 'nothing',
  );
}

describe("node:http's httpAllowHalfOpen", () => {
  it('node:http Server still has httpAllowHalfOpen, false by default', async () => {
    const { server } = await answerLater();
    expect((server as Server & { httpAllowHalfOpen?: boolean }).httpAllowHalfOpen).toBe(false);
  });

  it('node:http still drops answers to a client that half-closed, unless httpAllowHalfOpen is set', async () => {
    const plain = await answerLater();
    expect(await halfClosedRequest(plain.origin)).toBe('nothing');
    const halfOpen = await answerLater();
    answerHalfClosedConnections(halfOpen.server);
    expect(await halfClosedRequest(halfOpen.origin)).toBe('answered');
  });
});
