import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { isLingering, lingeringClose, NO_LINGER } from '../../src/http/lingering-close.js';

const servers: Array<ReturnType<typeof createServer>> = [];
afterEach(() => {
  for (const server of servers.splice(0)) server.close();
});

/**
 * Both ends of one TCP connection: the server's, half-open allowed as an HTTP server's is, and the
 * client's, which ends its side when the server has ended its own, unless `clientHalfOpen`.
 */
async function connection({ clientHalfOpen = false } = {}): Promise<{ server: Socket; client: Socket }> {
  const listener = createServer({ allowHalfOpen: true });
  servers.push(listener);
  listener.listen(0, '127.0.0.1');
  await once(listener, 'listening');
  const accepted = once(listener, 'connection') as Promise<[Socket]>;
  const client = connect({ port: (listener.address() as { port: number }).port, host: '127.0.0.1', allowHalfOpen: clientHalfOpen });
  client.on('error', () => {});
  await once(client, 'connect');
  const [server] = await accepted;
  return { server, client };
}

/** Everything the client receives until its connection closes. */
function received(client: Socket): Promise<string> {
  let text = '';
  client.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
  return new Promise((resolve) => client.once('close', () => resolve(text)));
}

/** Writes as fast as the connection takes it, until the connection breaks. */
function sendForEver(client: Socket): void {
  const chunk = Buffer.alloc(64 * 1024, 0x61);
  const pump = () => {
    while (!client.destroyed && client.write(chunk));
    if (!client.destroyed) client.once('drain', pump);
  };
  pump();
}

describe('lingeringClose', () => {
  it('sends the answer and a half-close, reads what still arrives, and closes once the client has', async () => {
    const { server, client } = await connection({ clientHalfOpen: true });
    const text = received(client);
    const closed = once(server, 'close');
    client.write('a request whose body the server will not read');
    server.write('the answer');
    lingeringClose(server, { ms: 60_000, bytes: 1024 * 1024 });
    expect(isLingering(server)).toBe(true);
    // The half-close: the client sees the end of the answer and may still send.
    await once(client, 'end');
    client.end('the rest of the body');
    expect(await text).toBe('the answer');
    await closed;
    expect(server.bytesRead).toBe('a request whose body the server will not readthe rest of the body'.length);
  });

  it('lets a client that reads only after sending all its body read the answer', async () => {
    const { server, client } = await connection();
    client.pause();
    server.write('the answer');
    lingeringClose(server, { ms: 60_000, bytes: 64 * 1024 * 1024 });
    // Far more than the kernel's buffers hold: without the server reading, this write fails.
    const body = Buffer.alloc(48 * 1024 * 1024, 0x61);
    await new Promise<void>((resolve, reject) => client.write(body, (error) => (error ? reject(error) : resolve())));
    const text = received(client);
    client.resume();
    expect(await text).toBe('the answer');
  });

  it('closes at once when the client had already finished sending', async () => {
    const { server, client } = await connection();
    const text = received(client);
    const closed = once(server, 'close');
    client.end();
    server.resume();
    await once(server, 'end');
    server.write('the answer');
    lingeringClose(server, { ms: 60_000, bytes: 1024 });
    expect(await text).toBe('the answer');
    await closed;
  });

  it('cuts off a client that keeps sending, past the bytes it may send', async () => {
    const { server, client } = await connection({ clientHalfOpen: true });
    const limit = 1024 * 1024;
    const text = received(client);
    server.write('the answer');
    const before = server.bytesRead;
    lingeringClose(server, { ms: 60_000, bytes: limit });
    sendForEver(client);
    await once(server, 'close');
    // Cut by the first read past the limit: one read is at most 64 KiB.
    expect(server.bytesRead - before).toBeGreaterThan(limit);
    expect(server.bytesRead - before).toBeLessThanOrEqual(limit + 64 * 1024);
    expect(await text).toBe('the answer');
  });

  it('cuts off a client that keeps sending, once the time is up', async () => {
    const { server, client } = await connection({ clientHalfOpen: true });
    const text = received(client);
    server.write('the answer');
    lingeringClose(server, { ms: 200, bytes: Number.MAX_SAFE_INTEGER });
    // A trickle for ever: the connection never ends by the client or by the byte limit.
    const trickle = setInterval(() => client.write('a'), 10);
    try {
      await once(server, 'close');
      expect(await text).toBe('the answer');
    } finally {
      clearInterval(trickle);
    }
  });

  it('without lingering, closes once the answer is out, whatever the client keeps open', async () => {
    const { server, client } = await connection({ clientHalfOpen: true });
    const ended = once(client, 'end');
    let text = '';
    client.on('data', (chunk: Buffer) => (text += chunk.toString('latin1')));
    client.write('half a request');
    server.write('the answer');
    lingeringClose(server, NO_LINGER);
    await once(server, 'close');
    await ended;
    expect(text).toBe('the answer');
  });

  it('only closes a connection it can no longer write to', async () => {
    const { server } = await connection();
    server.end();
    lingeringClose(server);
    expect(server.destroyed).toBe(true);
    expect(isLingering(server)).toBe(false);
  });
});
