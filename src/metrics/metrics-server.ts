import { createServer, type Server } from 'node:http';
import type { Registry } from 'prom-client';

export const METRICS_PATH = '/metrics';

/**
 * The metrics listener: GET (or HEAD) /metrics in Prometheus's text format, and nothing else. A
 * server of its own, on METRICS_PORT, so the API's port never shows it: operators expose one port
 * to clients and the other to Prometheus only.
 */
export function createMetricsServer(registry: Registry): Server {
  return createServer((req, res) => {
    const path = req.url?.split('?')[0];
    if (path !== METRICS_PATH) {
      res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`Not found: metrics are at ${METRICS_PATH}\n`);
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Type': 'text/plain; charset=utf-8' }).end('Use GET.\n');
      return;
    }
    registry.metrics().then(
      (text) => {
        res.writeHead(200, {
          'Content-Type': registry.contentType,
          'Content-Length': Buffer.byteLength(text),
          'Cache-Control': 'no-store',
        });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (error: unknown) => {
        res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end(`Collecting the metrics failed: ${String(error)}\n`);
      },
    );
  });
}
