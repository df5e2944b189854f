import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * The responses of each connection that have not finished, in the order Node writes them: pipelined
 * requests are handed over as soon as they are read, and each response goes out once the one
 * before it has finished. The first is the one being answered.
 */
export class ConnectionResponses {
  private readonly queues = new WeakMap<Duplex, ServerResponse[]>();

  /** Starts tracking; call before the server's other listeners are added. */
  attach(server: Server): void {
    const track = (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.socket;
      let queue = this.queues.get(socket);
      if (!queue) this.queues.set(socket, (queue = []));
      queue.push(res);
      const done = () => {
        const at = queue.indexOf(res);
        if (at !== -1) queue.splice(at, 1);
      };
      res.once('finish', done);
      res.once('close', done);
    };
    for (const event of ['request', 'checkContinue', 'checkExpectation']) server.prependListener(event, track);
  }

  /** The response on `socket` that goes out next: the first that has not finished. */
  current(socket: Duplex): ServerResponse | undefined {
    return this.queues.get(socket)?.[0];
  }
}
