import { once } from 'node:events';
import { createServer, type RequestListener, type Server, type ServerOptions } from 'node:http';
import type { AddressInfo } from 'node:net';
import { onTestFinished } from 'vitest';

/** A bare node:http server on a free port of 127.0.0.1, closed when the test ends, with its origin. */
export async function plainServer(listener: RequestListener, options: ServerOptions = {}): Promise<{ server: Server; origin: string }> {
  const server = createServer(options, listener);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  onTestFinished(() => {
    server.close();
    server.closeAllConnections();
  });
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}
