import type { Request, RequestHandler } from 'express';
import type { AccountService, ResolvedSession } from '@expedition/operators';
import { clearSessionCookie, sessionCookieValue, type SessionCookieOptions } from './cookies';
import { setPrincipal } from './principal';

const SESSION = Symbol('portalSession');
type WithSession = Request & { [SESSION]?: ResolvedSession };

/** The resolved session of the request (for the CSRF check and the auth routes). */
export function findSession(req: Request): ResolvedSession | undefined {
  return (req as WithSession)[SESSION];
}

/**
 * Resolves the session cookie into the request's principal. A cookie that no longer names a live session (expired,
 * revoked, unknown) is cleared and the request continues anonymously: the guards answer 401 where a user is needed.
 * Several cookies of the session's name are no session, and none is cleared (cookies.ts, sessionCookieValue).
 */
export function sessionMiddleware(accounts: AccountService, cookie: SessionCookieOptions): RequestHandler {
  return async (req, res, next) => {
    try {
      const token = sessionCookieValue(req, cookie);
      if (!token) return next();
      const session = await accounts.resolveSession(token);
      if (!session) {
        clearSessionCookie(res, cookie);
        return next();
      }
      (req as WithSession)[SESSION] = session;
      setPrincipal(req, {
        userId: session.user.id,
        email: session.user.email,
        role: session.user.role,
        operatorId: session.user.operatorId,
        sessionId: session.sessionId,
      });
      next();
    } catch (err) {
      next(err);
    }
  };
}
