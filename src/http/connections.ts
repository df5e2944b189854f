import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';

interface Connection {
  /** Its responses that have not closed, in the order Node writes them (more than one when pipelined). */
  open: ServerResponse[];
  /** socket.bytesRead when its last response closed: more since then is a request begun. */
  bytesAtRest: number;
}

/**
 * A server's open connections and, on each, the responses that have not closed, in the order Node
 * writes them: pipelined requests are handed over as soon as they are read, and each response goes
 * out once the one before it has finished. One tracker per server, shared by the shutdown
 * (lifecycle.ts) and the answers written below Express (server.ts), so that a request costs one
 * push and one shared 'close' listener, whoever asks.
 */
export class Connections {
  private readonly connections = new Map<Duplex, Connection>();
  private readonly idleListeners: Array<(socket: Duplex) => void> = [];

  private constructor(server: Server) {
    server.on('connection', (socket: Socket) => {
      this.connections.set(socket, { open: [], bytesAtRest: 0 });
      socket.once('close', () => this.connections.delete(socket));
    });
    const connections = this.connections;
    const idleListeners = this.idleListeners;
    // One listener for every response, called with the response as `this`: nothing made per request.
    function closed(this: ServerResponse): void {
      const socket = this.req.socket;
      const connection = connections.get(socket);
      if (!connection) return;
      const at = connection.open.indexOf(this);
      if (at !== -1) connection.open.splice(at, 1);
      if (connection.open.length > 0) return;
      connection.bytesAtRest = socket.bytesRead;
      for (const listener of idleListeners) listener(socket);
    }
    const track = (req: IncomingMessage, res: ServerResponse) => {
      const connection = connections.get(req.socket);
      if (!connection) return;
      connection.open.push(res);
      res.on('close', closed);
    };
    // Put first, so that every request is tracked before the app answers it.
    for (const event of ['request', 'checkContinue', 'checkExpectation']) server.prependListener(event, track);
  }

  private static readonly ofServer = new WeakMap<Server, Connections>();

  /** The tracker of `server`, attached the first time it is asked for: before the server listens. */
  static of(server: Server): Connections {
    let connections = Connections.ofServer.get(server);
    if (!connections) Connections.ofServer.set(server, (connections = new Connections(server)));
    return connections;
  }

  /** The response on `socket` that goes out next: the first that has not finished. */
  current(socket: Duplex): ServerResponse | undefined {
    return this.connections.get(socket)?.open.find((res) => !res.writableFinished);
  }

  /** The responses on `socket` that have not closed, in order. */
  responsesOn(socket: Duplex): readonly ServerResponse[] {
    return this.connections.get(socket)?.open ?? [];
  }

  /** socket.bytesRead when its last response closed (0 before any). */
  bytesAtRest(socket: Duplex): number {
    return this.connections.get(socket)?.bytesAtRest ?? 0;
  }

  /** Every open connection's socket. */
  sockets(): IterableIterator<Socket> {
    // Only sockets of 'connection' are ever added.
    return this.connections.keys() as IterableIterator<Socket>;
  }

  /** Calls `listener` with a connection's socket each time its last open response closes. */
  onIdle(listener: (socket: Duplex) => void): void {
    this.idleListeners.push(listener);
  }
}
