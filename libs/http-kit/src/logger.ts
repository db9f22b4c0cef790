import pino from 'pino';
import { IncomingMessage, type ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { PUBLISHABLE_KEY_HEADER, WEBHOOK_SIGNATURE_HEADER } from '@expedition/contracts/rules';
import type { Logger } from '@expedition/platform';

/** Paths never written to logs in full: credentials, keys, cookies, card data. */
const REDACT = [
  'req.headers.authorization',
  'req.headers.cookie',
  `req.headers["${PUBLISHABLE_KEY_HEADER.toLowerCase()}"]`,
  'req.headers["stripe-signature"]',
  `req.headers["${WEBHOOK_SIGNATURE_HEADER.toLowerCase()}"]`,
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

// Registered symbols: a second copy of this module in the process (a bundle, a test sandbox) shares the getter's keys.
const BASE_LOGGER: unique symbol = Symbol.for('expedition.httpLogger.logger');
const STARTED_MS: unique symbol = Symbol.for('expedition.httpLogger.startedMs');
const CHILD_LOGGER: unique symbol = Symbol.for('expedition.httpLogger.child');

/** What httpLogger keeps on a request (symbol keys: invisible to handlers and to serializers). */
type LoggedRequest = IncomingMessage & {
  originalUrl?: string;
  [BASE_LOGGER]?: Logger;
  [STARTED_MS]?: number;
  [CHILD_LOGGER]?: Logger;
};

/**
 * One structured line per request when it finishes: request id, method, path (never the query string: it can carry
 * a publishable key; bearer tokens in the path redacted, see redactPath), status and duration.
 *
 * Levels: 5xx at error (real trouble); everything else at info, 4xx included. A 4xx is an answer the API meant to
 * give (the MPP 402 challenge, a declined card, a 401 for a revoked key, a 429), so a console at `warn` — `npm start`'s
 * — shows only what someone should look at.
 *
 * Every request of every app passes here, so the hot path allocates nothing of its own: two fields on the request and
 * one shared `finish` listener (none when even `error` is off). `req.log` is a getter defined once on
 * IncomingMessage.prototype, which every Express request inherits from; it builds the child logger only when a handler
 * asks for it. Defining that getter on each request instead turned every request into a slow dictionary-mode object.
 */
export function httpLogger(logger: Logger): RequestHandler {
  const logAccess = accessLog(logger);
  return (req, res, next) => {
    logAccess(req, res);
    next();
  };
}

/**
 * httpLogger()'s work, for an app that runs it inside a middleware of its own (one Express layer instead of two):
 * call the returned function once per request, before the handlers.
 */
export function accessLog(logger: Logger): (req: IncomingMessage, res: ServerResponse) => void {
  offerRequestLog();
  return (req, res) => {
    const logged = req as LoggedRequest;
    logged[BASE_LOGGER] = logger;
    if (!logger.isLevelEnabled('error')) return;
    logged[STARTED_MS] = performance.now();
    res.on('finish', logCompleted);
  };
}

/** Shared by every request (no closure per request): `this` is the response, `this.req` its request. */
function logCompleted(this: ServerResponse): void {
  const req = this.req as LoggedRequest;
  const logger = req[BASE_LOGGER];
  if (!logger) return;
  const status = this.statusCode;
  const level = status >= 500 ? 'error' : 'info';
  if (!logger.isLevelEnabled(level)) return;
  const ms = performance.now() - (req[STARTED_MS] ?? 0);
  logger[level](
    {
      reqId: req.id,
      method: req.method,
      path: redactPath(req.originalUrl ?? req.url ?? ''),
      status,
      ms: Math.round(ms * 10) / 10,
    },
    'request completed',
  );
}

let requestLogOffered = false;

/** Defines `req.log` once for every request of the process (see httpLogger). */
function offerRequestLog(): void {
  if (requestLogOffered) return;
  requestLogOffered = true;
  Object.defineProperty(IncomingMessage.prototype, 'log', {
    configurable: true,
    get(this: LoggedRequest): Logger | undefined {
      const base = this[BASE_LOGGER];
      if (!base) return undefined;
      return (this[CHILD_LOGGER] ??= base.child({ reqId: this.id }));
    },
    set(this: LoggedRequest, value: Logger) {
      this[CHILD_LOGGER] = value;
    },
  });
}
