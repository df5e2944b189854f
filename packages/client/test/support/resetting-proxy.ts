import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Hop-by-hop headers, and those fetch sets itself: not passed through. */
const NOT_FORWARDED = new Set(['host', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

export interface ResettingProxy {
  /** Where it listens, e.g. http://127.0.0.1:41234. */
  origin: string;
  /** How many of the next requests it forwards and then cuts off; tests set it. */
  resets: number;
  /** Every request it forwarded: its Idempotency-Key, and the status the server answered. */
  forwarded: Array<{ method: string; url: string; idempotencyKey: string | undefined; status: number }>;
  close(): Promise<void>;
}

/**
 * An HTTP proxy to `target` that forwards each request and waits for the server's whole answer, but,
 * while `resets` is above zero, destroys the client's connection instead of passing the answer on:
 * the server acted on the request (committed it), and the client never hears about it.
 */
export async function startResettingProxy(target: string): Promise<ResettingProxy> {
  const proxy: ResettingProxy = { origin: '', resets: 0, forwarded: [], close: () => Promise.resolve() };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const headers = Object.entries(req.headers).filter(([name]) => !NOT_FORWARDED.has(name)) as Array<[string, string]>;
      const body = chunks.length ? Buffer.concat(chunks) : undefined;
      void (async () => {
        const upstream = await fetch(`${target}${req.url}`, { method: req.method, headers, ...(body ? { body } : {}) });
        const answer = Buffer.from(await upstream.arrayBuffer());
        const idempotencyKey = req.headers['idempotency-key'] as string | undefined;
        proxy.forwarded.push({ method: req.method!, url: req.url!, idempotencyKey, status: upstream.status });
        if (proxy.resets > 0) {
          proxy.resets -= 1;
          req.socket.destroy();
          return;
        }
        const passed = [...upstream.headers].filter(([name]) => !NOT_FORWARDED.has(name));
        res.writeHead(upstream.status, Object.fromEntries(passed)).end(answer);
      })().catch((error: unknown) => res.destroy(error as Error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  proxy.close = () => {
    server.closeAllConnections();
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return proxy;
}
