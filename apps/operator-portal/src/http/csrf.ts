import { timingSafeEqual } from 'node:crypto';
import type { Request, RequestHandler } from 'express';
import { PORTAL_CSRF_HEADER } from '@expedition/contracts';
import { PortalError } from './errors';
import { findSession } from './session';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function originOfReferer(referer: string | undefined): string | undefined {
  if (!referer) return undefined;
  try {
    return new URL(referer).origin;
  } catch {
    return undefined;
  }
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * CSRF defence of every state-changing request (POST, PUT, PATCH, DELETE), two layers:
 * 1. Origin (or, without it, Referer) must be the portal's own origin: always, logged in or not (log-in CSRF).
 * 2. With a session, `X-CSRF-Token` must equal the session's synchronizer token (from GET /auth/session).
 * Refusals are 403 `{ code: 'csrf_failed' }`. Runs after the session middleware.
 */
export function csrfProtection(portalOrigin: string): RequestHandler {
  return (req, _res, next) => {
    if (SAFE_METHODS.has(req.method)) return next();
    const origin = req.get('origin') ?? originOfReferer(req.get('referer'));
    if (origin !== portalOrigin) {
      return next(new PortalError(403, 'csrf_failed', 'Cross-site request refused (Origin must be the portal)'));
    }
    const session = findSession(req);
    if (session) {
      const sent = req.get(PORTAL_CSRF_HEADER);
      if (!sent || !sameSecret(sent, session.csrfToken)) {
        return next(
          new PortalError(403, 'csrf_failed', `Missing or wrong ${PORTAL_CSRF_HEADER} header; reload the page`),
        );
      }
    }
    next();
  };
}

/** For tests and docs: whether a request of this method is checked. */
export function isStateChanging(req: Pick<Request, 'method'>): boolean {
  return !SAFE_METHODS.has(req.method);
}
