import type { RequestHandler } from 'express';

/**
 * `GET /healthz`: the process serves. `GET /readyz`: its dependencies (the database) answer, else 503.
 * One middleware rather than a Router: every request of the app passes through it, so it must cost one comparison.
 */
export function healthRoutes(deps: { ready: () => Promise<void>; readyTimeoutMs?: number }): RequestHandler {
  const timeoutMs = deps.readyTimeoutMs ?? READY_TIMEOUT_MS;
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (req.path === '/healthz') return void res.json({ status: 'ok' });
    if (req.path !== '/readyz') return next();
    // A database that hangs (restarting, a dropped network) must read as "not ready" well within a probe's timeout.
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('readiness check timed out')), timeoutMs);
    });
    Promise.race([deps.ready(), timedOut])
      .then(
        () => res.json({ status: 'ready' }),
        () => res.status(503).json({ status: 'unavailable' }),
      )
      .finally(() => clearTimeout(timer));
  };
}

/** Under the 5 s default timeout of Kubernetes probes (deploy/kubernetes). */
export const READY_TIMEOUT_MS = 2_000;
