import { Router } from 'express';

/** `/healthz`: the process serves. `/readyz`: its dependencies (the database) answer. */
export function healthRoutes(deps: { ready: () => Promise<void> }): Router {
  const router = Router();
  router.get('/healthz', (_req, res) => {
    res.json({ status: 'ok' });
  });
  router.get('/readyz', async (_req, res) => {
    try {
      await deps.ready();
      res.json({ status: 'ready' });
    } catch {
      res.status(503).json({ status: 'unavailable' });
    }
  });
  return router;
}
