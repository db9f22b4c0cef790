import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from '@expedition/platform';
import { AppError } from './app-error';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

/** Maps anything thrown to the documented error body. Never leaks a stack trace; only real faults are 500s. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
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
