import type { Server } from 'node:http';

/**
 * Relies on: node:http's Server reading its own `httpAllowHalfOpen` property (false by default,
 * set in its constructor, not an option of createServer) when a client ends its sending side: when
 * false, Node ends the connection at once and drops every answer not yet written; when true, it
 * answers the requests it has read, then closes.
 *
 * Why: a client may shut down its sending side once its requests are out and still read the
 * answers: "a TCP connection that is half-closed by the client does not delimit a request message,
 * nor does it imply that the client is no longer interested in a response" (RFC 9112 §9.6). Every
 * answer that waits on storage (a create's commit, any PostgreSQL query) would otherwise be lost.
 */
export function answerHalfClosedConnections(server: Server): void {
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;
}
