import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Relies on: node:http's ServerResponse having `shouldKeepAlive` (undocumented), which says whether
 * the connection stays open after it: false makes it send `Connection: close` and close the
 * connection once written; and `assignSocket(socket)` (undocumented), which gives a response
 * built by hand its connection, as Node's server does for each request.
 */
export function closeConnectionAfter(res: ServerResponse): void {
  res.shouldKeepAlive = false;
}

/**
 * A response to `req` on a bare connection (one Node's server handed over with the 'connect'
 * event), closing it once written, built with `Response` (Express's prototypes).
 */
export function responseOnSocket(Response: typeof ServerResponse, req: IncomingMessage, socket: Socket): ServerResponse {
  const res = new Response(req);
  closeConnectionAfter(res);
  res.assignSocket(socket);
  return res;
}
