import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiError } from '../errors/api-error.js';
import { isLingering, NO_LINGER } from './lingering-close.js';
import type { Listening } from './listen.js';
import { DEFAULT_ERROR_FORMAT } from '../contract/error-format.js';
import { writeRawError, type RawErrorWriter } from './raw-error.js';

type Phase = 'serving' | 'draining' | 'closing';

interface Connection {
  /** Requests on it whose responses have not finished (more than one when pipelined), with their responses. */
  inFlight: Map<IncomingMessage, ServerResponse>;
  /** socket.bytesRead when its last response finished: more since then is a request begun. */
  bytesAtRest: number;
}

/**
 * The server's life after start: serving, then, from a SIGTERM or SIGINT, draining (readiness fails
 * at once, requests are still served, each response closes its connection so clients move to other
 * instances) and closing (no new connections; what was read is answered; idle connections close;
 * half-sent requests get the Error object 503 and close). It tracks the server's connections because
 * Node stops enforcing its timeouts once the server is closed, so a client that sent nothing or half
 * a request would otherwise keep the process alive for ever.
 */
export class Lifecycle {
  private phase: Phase = 'serving';
  private readonly connections = new Map<Socket, Connection>();
  private drainCut: (() => void) | undefined;
  // Replaced by attach's writer, in the document's format, wherever a server is built (server.ts).
  private writeRawError: RawErrorWriter = (socket, error, { linger } = {}) =>
    writeRawError(socket, error, DEFAULT_ERROR_FORMAT, undefined, linger);

  /** False from the first shutdown signal on: /readyz answers 503. */
  get ready(): boolean {
    return this.phase === 'serving';
  }

  /** Whether responses should close their connection, so clients reconnect elsewhere. */
  get windingDown(): boolean {
    return this.phase !== 'serving';
  }

  /**
   * Starts tracking the server's connections and requests; call before it listens. `rawErrors`
   * writes the 503 of a request cut off by the shutdown (with its id, counted and logged).
   */
  attach(server: Server, rawErrors?: RawErrorWriter): void {
    if (rawErrors) this.writeRawError = rawErrors;
    server.on('connection', (socket: Socket) => {
      this.connections.set(socket, { inFlight: new Map(), bytesAtRest: 0 });
      socket.once('close', () => this.connections.delete(socket));
    });
    const onRequest = (req: IncomingMessage, res: ServerResponse) => {
      const connection = this.connections.get(req.socket);
      if (!connection) return;
      connection.inFlight.set(req, res);
      res.once('close', () => {
        connection.inFlight.delete(req);
        if (connection.inFlight.size > 0) return;
        connection.bytesAtRest = req.socket.bytesRead;
        // A connection closing after its answer has its own limits (see lingeringClose).
        if (this.phase === 'closing' && !isLingering(req.socket)) req.socket.destroy();
      });
    };
    // Listeners put first, so that they see every request before the app answers it.
    for (const event of ['request', 'checkContinue', 'checkExpectation']) server.prependListener(event, onRequest);
  }

  /**
   * Drains for `drainMs`, then stops listening and closes: resolves once every connection is gone.
   * `abort()` (at the shutdown deadline) cuts both short.
   */
  async shutdown(listening: Pick<Listening, 'close'>, drainMs: number): Promise<void> {
    if (this.phase !== 'serving') return;
    this.phase = 'draining';
    const drainCut = new AbortController();
    this.drainCut = () => drainCut.abort();
    await sleep(drainMs, undefined, { signal: drainCut.signal }).catch(() => undefined);
    this.phase = 'closing';
    const closed = listening.close();
    for (const [socket, connection] of this.connections) {
      if (isLingering(socket)) continue;
      const [req, res] = [...connection.inFlight].find(([inFlight]) => !inFlight.complete) ?? [];
      const unavailable = apiError('service_unavailable', undefined, { 'Retry-After': '5' });
      // A request not received in full: it cannot be served, but it can be told so. One whose body
      // was arriving is read on after the answer (lingeringClose), so that the client reads it; one
      // whose headers never came has nothing to wait for: its connection closes once told.
      if (req) this.writeRawError(socket, unavailable, { req, res });
      else if (connection.inFlight.size > 0) continue;
      else if (socket.bytesRead > connection.bytesAtRest) this.writeRawError(socket, unavailable, { linger: NO_LINGER });
      else socket.destroy();
      // Requests read in full are answered; their connection closes after the response (above).
    }
    await closed;
  }

  /** At the deadline: closes every connection now, whatever is under way on it. */
  abort(): void {
    this.drainCut?.();
    this.phase = 'closing';
    for (const socket of this.connections.keys()) socket.destroy();
  }
}
