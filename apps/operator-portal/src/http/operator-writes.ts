import type { Request, RequestHandler } from 'express';
import type { PrismaClient } from '@expedition/db';
import { SUSPENDED_OPERATOR_MESSAGE } from '@expedition/operators';
import type { PortalThrottles } from '../accounts/throttles';
import { throttle } from '../accounts/throttles';
import { isStateChanging } from './csrf';
import { PortalError } from './errors';
import { findPrincipal } from './principal';

/** POSTs that change nothing: a suspended operator may still use them, and they spend no write budget. */
const READ_ONLY_POSTS = new Set(['/operator/origins/test']);

/**
 * In front of `/operator/**` and `/team/**` for operator users' writes (POST, PUT, PATCH, DELETE):
 * 1. a suspended operator is read-only: 403 `operator_suspended` (the keys service refuses new keys on its own too);
 * 2. per-operator write budgets (docs/portal-api.md): every write, and test webhook events apart; 429 + Retry-After.
 * Reads, provider admins and anonymous callers pass through to the route's own guard.
 */
export function operatorWriteGate(deps: { prisma: PrismaClient; throttles: PortalThrottles }): RequestHandler {
  return async (req, _res, next) => {
    try {
      const principal = findPrincipal(req);
      const path = pathOf(req);
      const gated = path.startsWith('/operator/') || path === '/operator' || path.startsWith('/team/');
      if (!gated || !isStateChanging(req) || !principal?.operatorId || READ_ONLY_POSTS.has(path)) return next();
      const operatorId = principal.operatorId;
      const operator = await deps.prisma.operator.findUnique({ where: { id: operatorId }, select: { status: true } });
      if (operator?.status === 'suspended')
        throw new PortalError(403, 'operator_suspended', SUSPENDED_OPERATOR_MESSAGE);
      const budgets: Parameters<typeof throttle>[0] = [[deps.throttles.writesPerOperator, operatorId]];
      if (path === '/operator/webhook-events/test') budgets.push([deps.throttles.testEventsPerOperator, operatorId]);
      await throttle(budgets);
      next();
    } catch (err) {
      next(err);
    }
  };
}

/** The path below the API prefix, without a trailing slash. */
function pathOf(req: Request): string {
  return req.path.replace(/\/+$/, '') || '/';
}
