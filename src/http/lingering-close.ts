import type { Duplex } from 'node:stream';
import { startReading, stopHttpParsing } from './internals/index.js';

/** How long, and how much, a connection is still read after its last answer before it is closed. */
export interface LingerLimits {
  /** Milliseconds from the answer on. */
  ms: number;
  /** Bytes read (and dropped) from the answer on. */
  bytes: number;
}

/**
 * Enough for a client that sends a large body in full before it reads (as many HTTP libraries do)
 * to finish sending over a fast link and read the answer, and little enough that a client that
 * sends for ever costs a bounded amount of time and reading.
 */
export const DEFAULT_LINGER: LingerLimits = { ms: 5_000, bytes: 512 * 1024 * 1024 };

/** No lingering: the connection closes as soon as the answer has gone out, whatever still arrives. */
export const NO_LINGER: LingerLimits = { ms: 0, bytes: 0 };

const lingering = new WeakSet<Duplex>();

/** Whether the connection is being closed by lingeringClose: nothing more on it is HTTP to answer. */
export function isLingering(socket: Duplex): boolean {
  return lingering.has(socket);
}

/**
 * Closes a connection after its last answer without destroying that answer (RFC 9112 §9.6). A
 * connection closed while the client is still sending (a body refused before it was read) has
 * unread bytes, on which the kernel answers with a reset, and a reset makes the client's stack
 * drop the answer it has not read yet. So the closing is done in stages: the answer is followed by
 * a half-close, then whatever arrives is read and dropped until the client closes its side or the
 * limits are reached; only then is the connection closed.
 *
 * What arrives from then on is no longer parsed as HTTP.
 */
export function lingeringClose(socket: Duplex, limits: LingerLimits = DEFAULT_LINGER): void {
  if (lingering.has(socket) || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  lingering.add(socket);
  const close = () => socket.destroy();
  // Without lingering, nothing but the answer going out is waited for.
  const timer = limits.ms > 0 ? setTimeout(close, limits.ms) : undefined;
  socket.once('close', () => clearTimeout(timer));
  // What arrives from now on reaches only the counter below.
  stopHttpParsing(socket);
  let read = 0;
  socket.on('data', (chunk: Buffer) => {
    read += chunk.length;
    if (read > limits.bytes) close();
  });
  // The client has sent all it will: once the answer has gone out, nothing is left to reset.
  const closeOnceAnswered = () => (socket.writableFinished ? close() : socket.once('finish', close));
  if (socket.readableEnded || limits.ms === 0) closeOnceAnswered();
  else socket.once('end', closeOnceAnswered);
  socket.end();
  socket.resume();
  startReading(socket);
}
