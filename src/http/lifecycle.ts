import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiError } from '../errors/api-error.js';
import { Connections } from './connections.js';
import { isLingering, NO_LINGER } from './lingering-close.js';
import type { Listening } from './listen.js';
import { DEFAULT_ERROR_FORMAT } from '../contract/error-format.js';
import { writeRawError, type RawErrorWriter } from './raw-error.js';

type Phase = 'serving' | 'draining' | 'closing';

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
  private connections: Connections | undefined;
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
    this.connections = Connections.of(server);
    // A connection closing after its answer has its own limits (see lingeringClose).
    this.connections.onIdle((socket) => {
      if (this.phase === 'closing' && !isLingering(socket)) socket.destroy();
    });
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
    // A lifecycle never attached to a server has no connections to close.
    if (this.connections) this.closeConnections(this.connections);
    await closed;
  }

  /** At the end of the drain: answers or closes each connection, by what it has sent and been answered. */
  private closeConnections(connections: Connections): void {
    for (const socket of connections.sockets()) {
      if (isLingering(socket)) continue;
      const open = connections.responsesOn(socket);
      const res = open.find((response) => !response.req.complete);
      const unavailable = apiError('service_unavailable', undefined, { 'Retry-After': '5' });
      // A request not received in full: it cannot be served, but it can be told so. One whose body
      // was arriving is read on after the answer (lingeringClose), so that the client reads it; one
      // whose headers never came has nothing to wait for: its connection closes once told.
      if (res) this.writeRawError(socket, unavailable, { req: res.req, res });
      else if (open.length > 0) continue;
      else if (socket.bytesRead > connections.bytesAtRest(socket)) this.writeRawError(socket, unavailable, { linger: NO_LINGER });
      else socket.destroy();
      // Requests read in full are answered; their connection closes after the response (above).
    }
  }

  /** At the deadline: closes every connection now, whatever is under way on it. */
  abort(): void {
    this.drainCut?.();
    this.phase = 'closing';
    for (const socket of this.connections?.sockets() ?? []) socket.destroy();
  }
}
