import type { RequestHandler } from 'express';
import { PortalError } from './errors';
import { findPrincipal } from './principal';

export interface PortalGuards {
  /** Any logged-in user (401 without a session). */
  requireUser: RequestHandler;
  /** An owner or member of an operator (401 without a session; 403 for a provider admin). */
  requireOperatorUser: RequestHandler;
  /** The owner of an operator (401 without a session; 403 for a member or a provider admin). */
  requireOwner: RequestHandler;
  /** A provider admin (401 without a session; 403 for operator users). */
  requireProviderAdmin: RequestHandler;
}

/** Guards read the principal the session middleware attached; they never touch the database. */
export function createGuards(): PortalGuards {
  const guard =
    (allowed: (role: string, operatorId: string | null) => boolean, refusal: string): RequestHandler =>
    (req, _res, next) => {
      const principal = findPrincipal(req);
      if (!principal) return next(PortalError.unauthorized());
      if (!allowed(principal.role, principal.operatorId)) return next(PortalError.forbidden(refusal));
      next();
    };
  return {
    requireUser: guard(() => true, ''),
    requireOperatorUser: guard(
      (role, operatorId) => (role === 'owner' || role === 'member') && operatorId !== null,
      'This page is for operator accounts',
    ),
    requireOwner: guard(
      (role, operatorId) => role === 'owner' && operatorId !== null,
      'Only an owner of the operator can do this',
    ),
    requireProviderAdmin: guard((role) => role === 'provider_admin', 'Only provider administrators can do this'),
  };
}
