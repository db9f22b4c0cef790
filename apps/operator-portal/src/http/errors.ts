import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { PortalErrorCode } from '@expedition/contracts';
import { AppError, createFailureLog, toAppError, type ErrorDetail } from '@expedition/http-kit';
import { isAccountError, isOperatorError, type AccountErrorCode } from '@expedition/operators';
import type { Logger } from '@expedition/platform';

/**
 * The error type of portal routes. Body: `{ error, code, details? }` (+ `requestId`). Throw it from any handler;
 * `OperatorError`s of the service layer are mapped too (not_found → 404, invalid_input → 400, conflict → 409,
 * suspended → 403 operator_suspended, limit_reached → 409), and so are http-kit `AppError`s and body-parser errors.
 */
export class PortalError extends Error {
  override readonly name = 'PortalError';

  constructor(
    readonly status: number,
    readonly code: PortalErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }

  static badRequest(message: string, details?: ErrorDetail[], code: PortalErrorCode = 'invalid_request') {
    return new PortalError(400, code, message, details);
  }

  static unauthorized(message = 'Log in to continue') {
    return new PortalError(401, 'unauthorized', message);
  }

  static forbidden(message = 'You are not allowed to do this') {
    return new PortalError(403, 'forbidden', message);
  }

  static notFound(message = 'Not found') {
    return new PortalError(404, 'not_found', message);
  }

  static conflict(message: string, code: PortalErrorCode = 'conflict') {
    return new PortalError(409, code, message);
  }

  static rateLimited(retryAfterSec: number) {
    return new PortalError(429, 'rate_limited', `Too many attempts; try again in ${retryAfterSec} s`, undefined, {
      'Retry-After': String(retryAfterSec),
    });
  }
}

const ACCOUNT_ERRORS: Record<AccountErrorCode, [number, PortalErrorCode]> = {
  invalid_input: [400, 'invalid_request'],
  weak_password: [400, 'weak_password'],
  email_unverified: [403, 'email_unverified'],
  wrong_password: [400, 'wrong_password'],
  invalid_token: [400, 'invalid_token'],
  invalid_credentials: [401, 'invalid_credentials'],
  not_found: [404, 'not_found'],
  email_taken: [409, 'email_taken'],
  already_member: [409, 'already_member'],
  last_owner: [409, 'last_owner'],
};

export function toPortalError(err: unknown): PortalError {
  if (err instanceof PortalError) return err;
  if (isAccountError(err)) {
    const [status, code] = ACCOUNT_ERRORS[err.code];
    return new PortalError(status, code, err.message);
  }
  if (isOperatorError(err)) {
    if (err.code === 'not_found') return new PortalError(404, 'not_found', err.message);
    if (err.code === 'conflict') return new PortalError(409, 'conflict', err.message);
    if (err.code === 'suspended') return new PortalError(403, 'operator_suspended', err.message);
    if (err.code === 'limit_reached') return new PortalError(409, 'limit_reached', err.message);
    return new PortalError(400, 'invalid_request', err.message);
  }
  const appError: AppError = toAppError(err);
  const portalError = new PortalError(
    appError.status,
    appError.code as PortalErrorCode,
    appError.message,
    appError.details,
  );
  if (appError.status >= 500) portalError.cause = appError.cause ?? err;
  return portalError;
}

/**
 * The portal's error handler: never a stack trace, never a secret; only real faults are logged as errors, and a database
 * outage's at most once per 10 s (createFailureLog).
 */
export function portalErrorHandler(logger: Logger): ErrorRequestHandler {
  const logFailure = createFailureLog(logger);
  return (err, req, res, _next) => {
    const error = toPortalError(err);
    if (error.status >= 500) logFailure(error.cause ?? err, { reqId: req.id });
    if (res.headersSent) return res.end();
    for (const [name, value] of Object.entries(error.headers ?? {})) res.setHeader(name, value);
    res.status(error.status).json({
      error: error.message,
      code: error.code,
      ...(error.details ? { details: error.details } : {}),
      ...(req.id ? { requestId: String(req.id) } : {}),
    });
  };
}

export function portalNotFound(): RequestHandler {
  return (req, _res, next) => next(new PortalError(404, 'not_found', `No route for ${req.method} ${req.path}`));
}
