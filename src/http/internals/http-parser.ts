import type { Duplex } from 'node:stream';

/**
 * Relies on: node:http's parser reading a server connection through the socket's 'data' listeners
 * (socketOnData, the only one), so that removing them stops it; and on Node's HTTP layer stopping
 * a connection whose request body waits to be read at the native handle, behind the stream's back
 * (`socket._handle.reading = false; _handle.readStop()`), and starting it again only through
 * listeners of its own (onSocketResume in node:_http_server), which do nothing once the parser has
 * paused it. Reading is started as that layer does.
 *
 * Why: a connection closed after its answer (lingeringClose) is read and its bytes dropped, never
 * parsed as HTTP again, and a client that sends its whole body before it reads must be able to send.
 */
export function stopHttpParsing(socket: Duplex): void {
  socket.removeAllListeners('data');
}

export function startReading(socket: Duplex): void {
  const handle = (socket as Duplex & { _handle?: { reading?: boolean; readStart?: () => number } })._handle;
  if (handle?.readStart && !handle.reading) {
    handle.reading = true;
    handle.readStart();
  }
}
