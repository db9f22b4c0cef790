import pino, { type Logger } from 'pino';
import { pinoHttp } from 'pino-http';
import type { RequestHandler } from 'express';

export type { Logger };

/** Paths never written to logs in full: credentials, keys, cookies, card data. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-svc-publishable-key"]',
  'req.headers["stripe-signature"]',
  'req.headers["x-svc-signature"]',
  'res.headers["set-cookie"]',
];

export function createLogger(options: { name: string; level?: string; pretty?: boolean }): Logger {
  return pino({
    name: options.name,
    level: options.level ?? 'info',
    redact: { paths: REDACT, censor: '[redacted]' },
    base: { service: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

/** One structured line per request, with the request id (set by `requestId()` before this). */
export function httpLogger(logger: Logger): RequestHandler {
  return pinoHttp({
    logger,
    genReqId: (req) => req.id ?? 'unknown',
    quietReqLogger: true,
    customLogLevel: (_req, res, err) => (err || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
    // Query strings can carry a publishable key (?pk=); log the path only.
    serializers: {
      req: (req: { id: string; method: string; url: string }) => ({
        id: req.id,
        method: req.method,
        path: req.url.split('?')[0],
      }),
      res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
    },
  });
}
