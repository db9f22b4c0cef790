import type { PrismaClient } from '@expedition/db';
import type { OperatorService } from '@expedition/operators';
import type { Clock, Logger } from '@expedition/platform';
import type { PortalGuards } from './guards';

/** Public base URLs (no trailing slash). */
export interface PortalUrls {
  /** This portal, e.g. http://localhost:3004 */
  portal: string;
  /** The widget iframe app, e.g. http://localhost:3003 */
  widget: string;
  /** embed-api, e.g. http://localhost:3002 */
  embed: string;
  /** quote-api, e.g. http://localhost:3001 */
  quoteApi: string;
}

/**
 * What every portal router receives (`operatorRouter(deps)`, `adminRouter(deps)`, the accounts and team routers).
 * Routers are mounted under /api/portal/v1 AFTER JSON parsing, the session middleware and the CSRF check, so a
 * handler only picks its guard and reads `getPrincipal(req)`.
 */
export interface PortalRouteDeps {
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  operators: OperatorService;
  guards: PortalGuards;
  urls: PortalUrls;
}
