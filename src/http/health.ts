import { apiError } from '../errors/api-error.js';
import type { Storage } from '../storage/storage.js';
import { exactRouter } from './exact-router.js';
import type { Lifecycle } from './lifecycle.js';

/**
 * Probes for load balancers and orchestrators, outside the versioned API and without a key.
 * /healthz: the process is up and serving (never touches the database, so a database outage does
 * not get healthy processes restarted). /readyz: this process can take API traffic now: the
 * database answers and no shutdown has begun.
 */
export function healthRoutes(storage: Storage, lifecycle: Lifecycle) {
  const router = exactRouter();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    if (!lifecycle.ready) throw apiError('service_unavailable', undefined, { 'Retry-After': '5' });
    await storage.ping();
    res.json({ status: 'ready', storage: storage.kind });
  });
  return router;
}
