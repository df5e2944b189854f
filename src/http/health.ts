import { Router } from 'express';
import type { Storage } from '../storage/storage.js';

/**
 * Probes for load balancers and orchestrators, outside the versioned API and without a key.
 * /healthz: the process is up and serving (never touches the database, so a database outage does
 * not get healthy processes restarted). /readyz: this process can serve API traffic now.
 */
export function healthRoutes(storage: Storage): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    await storage.ping();
    res.json({ status: 'ready', storage: storage.kind });
  });
  return router;
}
