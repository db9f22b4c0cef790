import type { Request } from 'express';
import type { AuditActor } from '@expedition/operators';
import { PortalError } from './errors';

export type PortalRole = 'owner' | 'member' | 'provider_admin';

/** Who is calling: the user of a valid, unexpired portal session (set by the session middleware). */
export interface PortalPrincipal {
  userId: string;
  email: string;
  role: PortalRole;
  /** The operator the user belongs to; null for provider admins. */
  operatorId: string | null;
  sessionId: string;
}

const PRINCIPAL = Symbol('portalPrincipal');

type WithPrincipal = Request & { [PRINCIPAL]?: PortalPrincipal };

/** Called once per request by the session middleware. */
export function setPrincipal(req: Request, principal: PortalPrincipal): void {
  (req as WithPrincipal)[PRINCIPAL] = principal;
}

/** The caller, or undefined without a valid session. */
export function findPrincipal(req: Request): PortalPrincipal | undefined {
  return (req as WithPrincipal)[PRINCIPAL];
}

/**
 * The caller. Use behind a guard (`deps.guards.requireUser` and friends): without a session it throws the same 401 a
 * guard answers, so a route that forgot its guard still refuses instead of serving anonymous callers.
 */
export function getPrincipal(req: Request): PortalPrincipal {
  const principal = findPrincipal(req);
  if (!principal) throw PortalError.unauthorized();
  return principal;
}

/**
 * The operator id of an operator user (owner or member). Throws 403 for a provider admin (they use /admin routes).
 * Use it behind `requireOperatorUser`.
 */
export function getOperatorId(req: Request): string {
  const principal = getPrincipal(req);
  if (!principal.operatorId) throw PortalError.forbidden('This route is for operator users');
  return principal.operatorId;
}

/** The audit actor of this request: the logged-in user and the client address. */
export function actorOf(req: Request): AuditActor {
  const principal = getPrincipal(req);
  return { userId: principal.userId, email: principal.email, role: principal.role, ip: req.ip ?? null };
}
