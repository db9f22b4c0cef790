import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Metrics, QuoteSource } from './metrics';

/** The label of a request no route matched (404s, scanners): never its raw path, which could carry ids or tokens. */
export const UNMATCHED_ROUTE = '(unmatched)';
const HEALTH_PATHS = new Set(['/healthz', '/readyz']);

/**
 * The route TEMPLATE that served a request (`/api/v1/quotes/:quoteId`), never the raw path. Read when the response
 * finishes: Express has set `req.route` (and `req.baseUrl` for mounted routers) by then. A route declared with several
 * paths is labelled with all of them joined by `|` (still bounded).
 */
export function routeTemplate(req: Request): string {
  const route = req.route as { path?: unknown } | undefined;
  const path = route?.path;
  if (typeof path === 'string') return req.baseUrl + path;
  if (Array.isArray(path)) return req.baseUrl + path.map(String).join('|');
  // Answered by a middleware, not a route: only the health endpoints are worth naming.
  return HEALTH_PATHS.has(req.path) ? req.path : UNMATCHED_ROUTE;
}

/** Request duration histogram by app, method, route template and status. One `finish` listener per request. */
export function requestMetrics(metrics: Metrics, app: string): RequestHandler {
  const histogram = metrics.httpRequestDuration;
  return (req, res, next) => {
    const started = performance.now();
    res.once('finish', () => {
      histogram.observe(
        { app, method: req.method, route: routeTemplate(req), status: res.statusCode },
        (performance.now() - started) / 1000,
      );
    });
    next();
  };
}

/**
 * requestMetrics()'s observation for a request answered before Express (the embed poll of a ready quote, the
 * processor-event intake): its duration under the route template Express would have matched.
 */
export function observeRequestDuration(
  metrics: Pick<Metrics, 'httpRequestDuration'>,
  labels: { app: string; method: string; route: string },
  res: ServerResponse,
): void {
  const started = performance.now();
  res.once('finish', () => {
    metrics.httpRequestDuration.observe({ ...labels, status: res.statusCode }, (performance.now() - started) / 1000);
  });
}

/**
 * Wraps the embed gate: counts each decision. The gate either calls `next()` (admitted) or answers itself with a bare
 * 401/403/429; preflights (OPTIONS) and store failures (`next(err)`) are not decisions and are not counted.
 */
export function countGateDecisions<G extends RequestHandler>(gate: G, metrics: Metrics | undefined): RequestHandler {
  if (!metrics) return gate;
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'OPTIONS') return gate(req, res, next);
    let passed = false;
    const admitted: NextFunction = (err?: unknown) => {
      passed = true;
      if (err === undefined) metrics.gateDecision('admitted');
      next(err);
    };
    return Promise.resolve(gate(req, res, admitted)).then(() => {
      if (passed || !res.headersSent) return;
      const status = res.statusCode;
      if (status === 401 || status === 403 || status === 429)
        metrics.gateDecision(String(status) as '401' | '403' | '429');
    });
  };
}

/** Counts a created quote when the route answers with one of `statuses` (the create routes' success codes). */
export function countQuotesCreated(
  metrics: Metrics | undefined,
  source: QuoteSource,
  statuses: readonly number[],
): RequestHandler[] {
  if (!metrics) return [];
  return [
    (_req, res, next) => {
      res.once('finish', () => {
        if (statuses.includes(res.statusCode)) metrics.quoteCreated(source);
      });
      next();
    },
  ];
}

/** `GET /metrics` in Prometheus text format for any framework: a plain Node request handler. */
export function metricsRequestListener(metrics: Metrics) {
  return (req: { method?: string; url?: string }, res: import('node:http').ServerResponse): void => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.statusCode = 404;
      res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      res.end('Not Found');
      return;
    }
    metrics.registry.metrics().then(
      (text) => {
        res.statusCode = 200;
        res.setHeader('Content-Type', metrics.registry.contentType);
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => {
        res.statusCode = 500;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.end('metrics unavailable');
      },
    );
  };
}

export interface MetricsServer {
  server: Server;
  port: number;
  url: string;
  close(): Promise<void>;
}

/**
 * The metrics listener: its own port (`METRICS_PORT`), so the public Ingress, which routes only the app port, never
 * exposes it. Serves `GET /metrics` and nothing else.
 */
export async function startMetricsServer(
  metrics: Metrics,
  options: { port: number; host?: string },
): Promise<MetricsServer> {
  const server = createServer(metricsRequestListener(metrics));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = options.host && options.host !== '0.0.0.0' ? options.host : 'localhost';
  return {
    server,
    port,
    url: `http://${host}:${port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
