import pino from 'pino';
import type { RequestHandler } from 'express';
import type { Logger } from '@expedition/platform';

/** Paths never written to logs in full: credentials, keys, cookies, card data. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-svc-publishable-key"]',
  'req.headers["stripe-signature"]',
  'req.headers["x-svc-signature"]',
  'res.headers["set-cookie"]',
];

export function createLogger(options: { name: string; level?: string }): Logger {
  return pino({
    name: options.name,
    level: options.level ?? 'info',
    redact: { paths: REDACT, censor: '[redacted]' },
    base: { service: options.name },
    timestamp: pino.stdTimeFunctions.isoTime,
  });
}

declare module 'http' {
  interface IncomingMessage {
    /** Set by `requestId()`. */
    id?: string;
    /** A child logger carrying the request id, created on first use. */
    log?: Logger;
  }
}

/**
 * Path segments that are bearer credentials: whoever holds the URL holds the power (a checkout link `cs_…` pays a
 * quote), so log readers must not get them. Prefixes of our tokens and Stripe's: checkout links, secret keys,
 * webhook secrets, shared payment tokens, policy access tokens (`pat_…`; the certificate link carries its token in the
 * query string, which is never logged), and client secrets (`pi_…_secret_…`).
 */
const BEARER_SEGMENT = /^(cs|sk|rk|whsec|spt|pat)_/i;
const CLIENT_SECRET_SEGMENT = /_secret_/i;

/** The path as logged: no query string, and every bearer-token segment replaced by `<prefix>_[redacted]`. */
export function redactPath(url: string): string {
  const path = url.split('?')[0] ?? '';
  return path
    .split('/')
    .map((segment) => {
      const decoded = safeDecode(segment);
      if (CLIENT_SECRET_SEGMENT.test(decoded)) return '[redacted]';
      const bearer = BEARER_SEGMENT.exec(decoded);
      return bearer ? `${bearer[1]}_[redacted]` : segment;
    })
    .join('/');
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * One structured line per request when it finishes: request id, method, path (never the query string: it can carry
 * a publishable key; bearer tokens in the path redacted, see redactPath), status and duration. Cheap on the hot path:
 * no per-request child logger unless a handler asks for `req.log`.
 *
 * Levels: 5xx at error (real trouble); everything else at info, 4xx included. A 4xx is an answer the API meant to
 * give (the MPP 402 challenge, a declined card, a 401 for a revoked key, a 429), so a console at `warn` — `npm start`'s
 * — shows only what someone should look at.
 */
export function httpLogger(logger: Logger): RequestHandler {
  return (req, res, next) => {
    const started = process.hrtime.bigint();
    let child: Logger | undefined;
    Object.defineProperty(req, 'log', {
      configurable: true,
      get: () => (child ??= logger.child({ reqId: req.id })),
    });
    res.once('finish', () => {
      const status = res.statusCode;
      const level = status >= 500 ? 'error' : 'info';
      if (!logger.isLevelEnabled(level)) return;
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      logger[level](
        { reqId: req.id, method: req.method, path: redactPath(req.originalUrl), status, ms: Math.round(ms * 10) / 10 },
        'request completed',
      );
    });
    next();
  };
}
