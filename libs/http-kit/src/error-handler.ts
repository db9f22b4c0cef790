import type { ErrorRequestHandler, RequestHandler } from 'express';
import { systemClock, type Clock, type Logger } from '@expedition/platform';
import { AppError } from './app-error';
import { answerDomainError, type DomainErrorMapping } from './domain-errors';
import { linkedErrors, type LinkedError } from './error-chain';
import { unsupportedCharset } from './json-body';

interface BodyParserError extends Error {
  type?: string;
  status?: number;
}

/** Seconds a client is told to wait (`Retry-After`) when a dependency is briefly unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SEC = 5;

// Connection-level failures (the database restarting, unreachable, shutting down or out of connections): node's
// socket and DNS errors, PostgreSQL's SQLSTATE classes 08 (connection exception), 53300 (too many connections) and
// 57P01-03 (operator intervention), and Prisma's codes for the same (P1001/P1002 unreachable, P1008 socket timeout,
// P1017 connection closed, P2037 too many connections).
const UNAVAILABLE_CODES =
  /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|08\w{3}|53300|57P0[1-3]|P100[128]|P1017|P2037)$/;
// What @prisma/adapter-pg calls those failures (`DriverAdapterError.cause.kind`, also kept in Prisma's
// `meta.driverAdapterError`); a commit on a lost connection throws the bare DriverAdapterError.
const UNAVAILABLE_KINDS = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout', 'TooManyConnections']);
// pg's own errors carry no code: a socket closed mid-query ("Connection terminated unexpectedly"), the next query on
// a client whose connection failed while it sat in a transaction ("… connection error and is not queryable"), a pool
// that could not connect in time. Prisma passes them on as they are or inside its message.
const UNAVAILABLE_MESSAGES =
  /Connection terminated|Can't reach database server|server (has )?closed the connection|connection is closed|connection error and is not queryable|timeout exceeded when trying to connect/i;

// Prisma's P2028 "Unable to start a transaction in the given time": no connection within the transaction's maxWait
// (2 s), which is what a database that accepts connections but never answers (frozen, partitioned) looks like to an
// interactive transaction. P2028's other meaning (a transaction that ran past its own timeout) stays a 500.
const TRANSACTION_NOT_STARTED = /Unable to start a transaction in the given time/;

function saysUnavailable(e: LinkedError): boolean {
  const codes = [e.code, e.originalCode].filter((c): c is string => typeof c === 'string');
  if (codes.some((code) => UNAVAILABLE_CODES.test(code))) return true;
  if (e.code === 'P2028' && typeof e.message === 'string' && TRANSACTION_NOT_STARTED.test(e.message)) return true;
  if (typeof e.kind === 'string' && UNAVAILABLE_KINDS.has(e.kind)) return true;
  return typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message);
}

/** The first error in `err`'s chain that says a dependency could not be reached; undefined when none does. */
export function unavailableLink(err: unknown): LinkedError | undefined {
  for (const e of linkedErrors(err)) if (saysUnavailable(e)) return e;
  return undefined;
}

/** True when `err` (or an error it wraps) says a dependency could not be reached, rather than that the request failed. */
export function isDependencyUnavailable(err: unknown): boolean {
  return unavailableLink(err) !== undefined;
}

/**
 * Maps anything thrown to the documented error body. Never leaks a stack trace; only real faults are 500s. A domain
 * error of one of `domainErrors` gets the app's answer for its code (domain-errors.ts).
 */
export function toAppError(err: unknown, domainErrors: readonly DomainErrorMapping[] = []): AppError {
  if (err instanceof AppError) return err;
  const answered = answerDomainError(err, domainErrors);
  if (answered) return answered;
  if (isDependencyUnavailable(err)) {
    return new AppError(
      503,
      'internal_error',
      'The service is briefly unavailable. Retry after Retry-After seconds',
      undefined,
      { cause: err },
    );
  }
  const e = err as BodyParserError;
  if (e?.type === 'entity.parse.failed') return new AppError(400, 'invalid_json', 'Request body is not valid JSON');
  if (e?.type === 'entity.too.large') return new AppError(413, 'payload_too_large', 'Request body is too large');
  if (e?.type === 'charset.unsupported') return unsupportedCharset();
  if (e?.type === 'encoding.unsupported')
    return new AppError(
      415,
      'invalid_request',
      'Unsupported Content-Encoding: send the body uncompressed, or gzip or deflate',
    );
  if (typeof e?.status === 'number' && e.status >= 400 && e.status < 500) {
    return new AppError(e.status, 'invalid_request', 'Invalid request');
  }
  return new AppError(500, 'internal_error', 'Internal server error', undefined, { cause: err });
}

export interface ErrorHandlerOptions {
  /** The app's answers to the domain errors of the libs it calls (`mapDomainErrors`); an unanswered one is a 500. */
  domainErrors?: readonly DomainErrorMapping[];
  /** The clock of the outage log's throttle (createFailureLog); the system clock by default. */
  clock?: Clock;
  /** The app's failure log when other handlers share it (one outage throttle per app); else one of its own. */
  logFailure?: FailureLog;
}

/** The app's last middleware: anything thrown, as the documented error body (or a mapped domain error's own body). */
export function errorHandler(logger: Logger, options: ErrorHandlerOptions = {}): ErrorRequestHandler {
  const logFailure = options.logFailure ?? createFailureLog(logger, options.clock);
  return (err, req, res, _next) => {
    const appError = toAppError(err, options.domainErrors);
    if (appError.status >= 500) logFailure(appError.cause ?? err, { reqId: req.id });
    if (res.headersSent) return res.end();
    if (appError.status === 503 && !res.getHeader('Retry-After'))
      res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_SEC));
    if (appError.body) return res.status(appError.status).json(appError.body);
    res.status(appError.status).json({
      error: appError.message,
      code: appError.code,
      ...(appError.details ? { details: appError.details } : {}),
      ...(req.id ? { requestId: String(req.id) } : {}),
    });
  };
}

/** During a dependency outage, the full error is logged at most once per this many milliseconds (per FailureLog). */
export const OUTAGE_LOG_EVERY_MS = 10_000;

/** Logs one request that failed: its error, the fields that name the request (`reqId`, a key id…), the line's message. */
export type FailureLog = (err: unknown, fields: Record<string, unknown>, msg?: string) => void;

/**
 * How an app logs a request that failed on a fault (a 5xx, an MCP tool's error, the widget's generic quote error). A
 * real fault is logged in full, every time.
 *
 * A dependency outage (the database unreachable, answered 503) fails every request the same way. Logging each one
 * in full wrote about 490 KB/s per replica under load, and buried everything else. So the full error is logged at
 * most once per `OUTAGE_LOG_EVERY_MS`, with `dependencyUnavailable: true` and `unloggedSinceLastLine`: the outage
 * failures since the previous such line, counted and not logged. The access log still has one line per request (its
 * status, reqId). docs/runbooks.md, "DatabaseUnreachable".
 */
export function createFailureLog(logger: Pick<Logger, 'error'>, clock: Clock = systemClock): FailureLog {
  let loggedAtMs = Number.NEGATIVE_INFINITY;
  let unlogged = 0;
  return (err, fields, msg = 'request failed') => {
    if (!isDependencyUnavailable(err)) return logger.error({ ...fields, err }, msg);
    const nowMs = clock.now().getTime();
    if (nowMs - loggedAtMs < OUTAGE_LOG_EVERY_MS) {
      unlogged += 1;
      return;
    }
    logger.error({ ...fields, err, dependencyUnavailable: true, unloggedSinceLastLine: unlogged }, msg);
    loggedAtMs = nowMs;
    unlogged = 0;
  };
}

export function notFound(): RequestHandler {
  return (req, _res, next) => next(new AppError(404, 'not_found', `No route for ${req.method} ${req.path}`));
}
