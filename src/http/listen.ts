import type { Server } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Server as NetServer } from 'node:net';

/**
 * How many connections the kernel may queue for the server before it accepts them (it caps the
 * number at net.core.somaxconn). Past Node's default of 511, a burst of connections overflows the
 * queue: Linux then drops the last packet of a client's handshake and may give the connection up
 * without telling the client, which believes it is connected. The server never had that
 * connection, so none of its timeouts closes it, and a client that sends nothing waits on it for
 * ever.
 */
export const LISTEN_BACKLOG = 65_535;

/**
 * How many sockets listen on the API's port. libuv accepts one connection per listening socket per
 * turn of the event loop (since 1.45, Node 20), and a turn under load serves every connection that
 * has a request ready first: a burst of new connections (a client pool opening, clients moving over
 * from an instance that drains) waits up to one turn per connection before its first request is
 * read. With this many sockets on the port (SO_REUSEPORT, which the kernel spreads connections
 * over), a burst is taken in that many times fewer turns. See docs/performance.md.
 */
export const LISTENING_SOCKETS = 16;

export interface Listening {
  /** `http://HOST:PORT`, as clients reach it. */
  readonly url: string;
  /** How many sockets accept connections: LISTENING_SOCKETS, or 1 where the platform or Node cannot share a port. */
  readonly sockets: number;
  /** Stops accepting on every socket; resolves once every connection they accepted has closed. */
  close(): Promise<void>;
}

interface ListenOptions {
  port: number;
  host: string;
  sockets?: number;
}

/**
 * Listens on HOST:PORT with `sockets` sockets, all of whose connections the HTTP server serves as
 * its own. Rejects as a single listen would (EADDRINUSE when something else has the port, another
 * instance of this server included: see `probe`).
 */
export async function listen(server: Server, { port, host, sockets = LISTENING_SOCKETS }: ListenOptions): Promise<Listening> {
  const extra: NetServer[] = [];
  if (sockets > 1) {
    const free = await probe(port, host);
    // Where Node (before 22.12) or the platform cannot share a port, the option is ignored or
    // refused: then the server listens alone, as it would without it.
    const shared = await bind(server, { port: free, host, reusePort: true }).then(
      () => true,
      () => false,
    );
    if (!shared) await bind(server, { port: free, host });
    const bound = (server.address() as AddressInfo).port;
    for (let i = 1; shared && i < sockets; i++) {
      // As node:http sets up its own sockets' connections (allowHalfOpen, noDelay); the HTTP server
      // then takes each one as if it had accepted it (its timeouts, limits and listeners apply).
      const acceptor = createNetServer({ allowHalfOpen: true, noDelay: true }, (socket) => server.emit('connection', socket));
      const joined = await bind(acceptor, { port: bound, host, reusePort: true }).then(
        () => true,
        () => false,
      );
      if (!joined) break;
      // A failed accept is the server's error, wherever it happened.
      acceptor.on('error', (error) => server.emit('error', error));
      extra.push(acceptor);
    }
  } else {
    await bind(server, { port, host });
  }
  const { address, port: bound } = server.address() as AddressInfo;
  return {
    url: `http://${address.includes(':') ? `[${address}]` : address}:${bound}`,
    sockets: 1 + extra.length,
    close: () => Promise.all([server, ...extra].map(closed)).then(() => undefined),
  };
}

function bind(server: NetServer, options: { port: number; host: string; reusePort?: boolean }): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error);
    server.once('error', onError);
    server.listen({ ...options, backlog: LISTEN_BACKLOG }, () => {
      server.off('error', onError);
      resolve();
    });
  });
}

/**
 * Binds HOST:PORT without sharing it and lets it go again: the port to share (PORT 0 picks one).
 * A port shared with SO_REUSEPORT can be joined by any process of the same user that asks to share
 * it too, so another instance of this server started on the same port would silently take half of
 * its connections. This bind fails with EADDRINUSE on a port that anything holds, sharing or not.
 */
async function probe(port: number, host: string): Promise<number> {
  const probe = createNetServer();
  await bind(probe, { port, host });
  const free = (probe.address() as AddressInfo).port;
  await closed(probe);
  return free;
}

function closed(server: NetServer): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
