import type { RequestHandler } from 'express';

/**
 * `GET /healthz`: the process serves. `GET /readyz`: its dependencies (the database) answer, else 503.
 * One middleware rather than a Router: every request of the app passes through it, so it must cost one comparison.
 */
export function healthRoutes(deps: { ready: () => Promise<void> }): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/healthz') return void res.json({ status: 'ok' });
    if (req.path !== '/readyz') return next();
    deps.ready().then(
      () => res.json({ status: 'ready' }),
      () => res.status(503).json({ status: 'unavailable' }),
    );
  };
}
