import { once } from 'node:events';
import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import { describe, expect, it, onTestFinished } from 'vitest';
import { listen, LISTENING_SOCKETS, type Listening } from '../../src/http/listen.js';

/** Node shares a port between sockets (the reusePort option) from 22.12 and 23.1, on Linux among others. */
const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
const sharesPorts = process.platform === 'linux' && (major > 23 || (major === 23 && minor >= 1) || (major === 22 && minor >= 12));

async function listening(server: Server, sockets?: number): Promise<Listening> {
  const result = await listen(server, { port: 0, host: '127.0.0.1', ...(sockets ? { sockets } : {}) });
  onTestFinished(async () => {
    server.closeAllConnections();
    await result.close();
  });
  return result;
}

/** The body of a GET sent on a connection of its own. */
async function answerOnNewConnection(url: string): Promise<string> {
  const [res] = (await once(get(url, { agent: false }), 'response')) as [IncomingMessage];
  let body = '';
  for await (const chunk of res) body += String(chunk);
  return body;
}

/**
 * Opens `count` connections to `port` from a worker thread while this thread's event loop stands
 * still (the kernel completes a handshake without the server accepting it), then lets the loop go
 * on and counts the connections the server takes in each turn of it.
 */
async function acceptsPerTurn(server: Server, port: number, count: number): Promise<number[]> {
  const done = new Int32Array(new SharedArrayBuffer(4));
  const worker = new Worker(
    `const { connect } = require('node:net');
     const { workerData, parentPort } = require('node:worker_threads');
     const sockets = [];
     let connected = 0;
     for (let i = 0; i < workerData.count; i++) {
       const socket = connect(workerData.port, '127.0.0.1', () => {
         if (++connected < workerData.count) return;
         Atomics.store(workerData.done, 0, 1);
         Atomics.notify(workerData.done, 0);
       });
       sockets.push(socket);
     }
     parentPort.once('message', () => sockets.forEach((socket) => socket.destroy()));`,
    { eval: true, workerData: { port, count, done } },
  );
  onTestFinished(async () => {
    await worker.terminate();
  });
  await once(worker, 'online');
  // Held here until every handshake is complete: nothing is accepted meanwhile.
  Atomics.wait(done, 0, 0, 10_000);
  expect(Atomics.load(done, 0)).toBe(1);
  const perTurn = [0];
  let accepted = 0;
  const turns = () => {
    if (accepted === count) return;
    perTurn.push(0);
    setImmediate(turns);
  };
  setImmediate(turns);
  await new Promise<void>((resolve) =>
    server.on('connection', () => {
      perTurn[perTurn.length - 1]! += 1;
      if (++accepted === count) resolve();
    }),
  );
  worker.postMessage('close');
  return perTurn.filter((accepts) => accepts > 0);
}

describe('listen', () => {
  it(`listens with ${LISTENING_SOCKETS} sockets where Node and the platform share a port, else with one`, async () => {
    const result = await listening(createServer());
    expect(result.sockets).toBe(sharesPorts ? LISTENING_SOCKETS : 1);
    expect(result.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('with one socket, takes one new connection per turn of the event loop (libuv)', async () => {
    const server = createServer();
    const result = await listening(server, 1);
    const perTurn = await acceptsPerTurn(server, Number(new URL(result.url).port), 8);
    expect(perTurn).toEqual([1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('with its sockets, takes a burst of connections in fewer turns where it has more than one', async () => {
    const server = createServer();
    const result = await listening(server);
    const perTurn = await acceptsPerTurn(server, Number(new URL(result.url).port), 64);
    if (result.sockets === 1) expect(perTurn).toEqual(Array.from({ length: 64 }, () => 1));
    else {
      expect(perTurn.length).toBeLessThan(64);
      expect(Math.max(...perTurn)).toBeGreaterThan(1);
    }
  });

  it('serves every connection, whichever socket took it, as its own: requests, timeouts, close', async () => {
    // Timeouts wide enough that no request sent whole meets one on a loaded machine; the stalled ones below wait them out.
    const server = createServer({ headersTimeout: 3000, requestTimeout: 3000, connectionsCheckingInterval: 100 }, (req, res) =>
      res.end(`served ${req.url}`),
    );
    const result = await listening(server);
    const port = Number(new URL(result.url).port);
    // More connections than sockets: the kernel spreads them over all of them.
    const answers = await Promise.all(Array.from({ length: 4 * result.sockets }, (_, i) => answerOnNewConnection(`${result.url}/${i}`)));
    expect(answers).toEqual(answers.map((_, i) => `served /${i}`));
    // A client that never finishes its headers gets the server's 408, on any of the sockets.
    const stalled = await Promise.all(
      Array.from({ length: 2 * result.sockets }, async () => {
        const socket = connect(port, '127.0.0.1');
        socket.write('GET / HTTP/1.1\r\nHost: x\r\n');
        let received = '';
        socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
        await once(socket, 'close');
        return received.split('\r\n')[0];
      }),
    );
    expect(new Set(stalled)).toEqual(new Set(['HTTP/1.1 408 Request Timeout']));
    // Closed: no socket on the port accepts any more.
    const idle = connect(port, '127.0.0.1');
    await once(idle, 'connect');
    const closing = result.close();
    idle.destroy();
    await closing;
    const refused = connect(port, '127.0.0.1');
    const [error] = (await once(refused, 'error')) as [NodeJS.ErrnoException];
    expect(error.code).toBe('ECONNREFUSED');
  });

  it('refuses a port that anything holds, another server like it included (EADDRINUSE)', async () => {
    const first = await listening(createServer());
    const port = Number(new URL(first.url).port);
    await expect(listen(createServer(), { port, host: '127.0.0.1' })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    const plain = createNetServer().listen(0, '127.0.0.1');
    await once(plain, 'listening');
    onTestFinished(() => void plain.close());
    const held = (plain.address() as AddressInfo).port;
    await expect(listen(createServer(), { port: held, host: '127.0.0.1' })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});
