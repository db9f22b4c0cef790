import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '@expedition/platform';
import { AppError } from './app-error';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

/** Seconds a client is told to wait (`Retry-After`) when a dependency is briefly unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SEC = 5;

// Connection-level failures (the database restarting, unreachable or shutting down): node's socket errors,
// PostgreSQL's SQLSTATE classes 08 (connection exception) and 57P (operator intervention), Prisma's P1001/P1002/P1017.
const UNAVAILABLE_CODES = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|08\w{3}|57P0[1-3]|P100[12]|P1017)$/;
const UNAVAILABLE_MESSAGES = /Connection terminated|Can't reach database server|server closed the connection|connection is closed|timeout exceeded when trying to connect/i;

/** True when `err` (or an error it wraps) says a dependency could not be reached, rather than that the request failed. */
export function isDependencyUnavailable(err: unknown): boolean {
  for (let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 6; depth++) {
    if (typeof e.code === 'string' && UNAVAILABLE_CODES.test(e.code)) return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
    const meta = (e as { meta?: { driverAdapterError?: { cause?: { originalCode?: unknown; kind?: unknown } } } }).meta;
    const adapterCause = meta?.driverAdapterError?.cause;
    if (typeof adapterCause?.originalCode === 'string' && UNAVAILABLE_CODES.test(adapterCause.originalCode)) return true;
    if (adapterCause?.kind === 'DatabaseNotReachable' || adapterCause?.kind === 'ConnectionClosed') return true;
    e = e.cause as typeof e;
  }
  return false;
}

/** Maps anything thrown to the documented error body. Never leaks a stack trace; only real faults are 500s. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (isDependencyUnavailable(err)) {
    return new AppError(503, 'internal_error', 'The service is briefly unavailable; nothing was done. Retry after Retry-After seconds', undefined, { cause: err });
  }
  const e = err as BodyParserError;
  if (e?.type === 'entity.parse.failed') return new AppError(400, 'invalid_json', 'Request body is not valid JSON');
  if (e?.type === 'entity.too.large') return new AppError(413, 'payload_too_large', 'Request body is too large');
  if (e?.type === 'encoding.unsupported' || e?.type === 'charset.unsupported') {
    return new AppError(415 as number, 'invalid_request', 'Unsupported request encoding');
  }
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    return new AppError(e.status, 'invalid_request', 'Invalid request');
  }
  return new AppError(500, 'internal_error', 'Internal server error', undefined, { cause: err });
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const appError = toAppError(err);
    if (appError.status >= 500) logger.error({ err: appError.cause ?? err, reqId: req.id }, 'request failed');
    if (res.headersSent) return res.end();
    if (appError.status === 503 && !res.getHeader('Retry-After')) res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SEC));
    res.status(appError.status).json({
      error: appError.message,
      code: appError.code,
      ...(appError.details ? { details: appError.details } : {}),
      ...(req.id ? { requestId: String(req.id) } : {}),
    });
  };
}

export function notFound(): RequestHandler {
  return (req, _res, next) => next(new AppError(404, 'not_found', `No route for ${req.method} ${req.path}`));
}
