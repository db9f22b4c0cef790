import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { accessLog, assignRequestId } from '@expedition/http-kit';
import type { Logger } from '@expedition/platform';

/** Where the embed routes live; everything under it is marked no-store. */
export const EMBED_PATH_PREFIX = '/api/embed';

/**
 * What every request of embed-api needs before any route: the request id (X-Request-Id), the access log line, and
 * `Cache-Control: no-store` under /api/embed. One middleware rather than requestId(), httpLogger() and
 * `app.use('/api/embed', noStore())`: each Express layer costs every request a share that the widget's poll, a route
 * that only copies cached bytes, notices (tools/bench/README.md, the embed rows).
 */
export function embedPrelude(logger: Logger): RequestHandler {
  const startResponse = embedResponseStart(logger);
  return (req, res, next) => {
    startResponse(req, res, isUnderEmbedPrefix(req.path));
    next();
  };
}

/**
 * The prelude's work on plain Node request and response objects, for a request answered before Express sees it (the
 * poll of a ready quote, options/ready-poll.ts): the same headers in the same order, the same access log line.
 */
export function embedResponseStart(
  logger: Logger,
): (req: IncomingMessage, res: ServerResponse, noStore: boolean) => void {
  const logAccess = accessLog(logger);
  return (req, res, noStore) => {
    assignRequestId(req, res);
    logAccess(req, res);
    if (noStore) markNoStore(res);
  };
}

/** Embed responses are per key and per quote: no shared cache may keep them. */
export function markNoStore(res: ServerResponse): void {
  res.setHeader('Cache-Control', 'no-store');
}

/**
 * The prefix as Express matches `app.use('/api/embed', …)`: case-insensitive, on the path as sent (not decoded), and
 * only at a segment boundary (`/api/embedded` is not under it).
 */
export function isUnderEmbedPrefix(path: string): boolean {
  const end = EMBED_PATH_PREFIX.length;
  if (path.length < end || path.slice(0, end).toLowerCase() !== EMBED_PATH_PREFIX) return false;
  return path.length === end || path[end] === '/';
}
