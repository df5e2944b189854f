import type { Socket } from 'node:net';

/**
 * Relies on: node:http closing a connection after a response that closes it (Connection: close,
 * HTTP/1.0, a refused body) by calling that socket's own `destroySoon()`, looked up on the socket
 * at the call, so that a property set on the socket replaces it.
 *
 * Why: net.Socket's destroySoon() destroys the connection as soon as the response is written:
 * while a refused body is still arriving, that is a reset, which destroys the response before the
 * client reads it. `close` (lingeringClose) closes it in stages instead.
 */
export function closeAfterLastResponse(socket: Socket, close: () => void): void {
  socket.destroySoon = close;
}
