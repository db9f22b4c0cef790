import express, { type Express, type RequestHandler } from 'express';
import type { PrismaClient } from '@expedition/db';
import { healthRoutes, httpLogger, jsonBody, refuseUnstorableJson, requestId } from '@expedition/http-kit';
import { observe, type Observability } from '@expedition/observability';
import type { AccountService, OperatorService, SecretBox } from '@expedition/operators';
import type { Clock, Logger } from '@expedition/platform';
import { accountRouter, type AccountRouteDeps } from './accounts/accounts.router';
import type { PortalThrottles } from './accounts/throttles';
import { adminRouter } from './admin/admin.router';
import { outboxRouter, type OutboxSource } from './dev/outbox.router';
import { csrfProtection } from './http/csrf';
import { portalErrorHandler, portalNotFound } from './http/errors';
import { createGuards } from './http/guards';
import { operatorWriteGate } from './http/operator-writes';
import type { PortalRouteDeps, PortalUrls } from './http/route-deps';
import { securityHeaders } from './http/security-headers';
import { sessionMiddleware } from './http/session';
import type { Mailer } from './mail/mailer';
import { operatorRouter } from './operator/operator.router';
import { spaRouter, type UiAssets } from './spa/spa.router';
import { teamRouter } from './team/team.router';

export const PORTAL_API_PREFIX = '/api/portal/v1';
export const PORTAL_MAX_BODY = '64kb';

export interface PortalAppDeps {
  prisma: PrismaClient;
  ready: () => Promise<void>;
  clock: Clock;
  logger: Logger;
  operators: OperatorService;
  accounts: AccountService;
  /** Not read by the app (the operator services hold the box); still accepted from callers that pass it. */
  secretBox?: SecretBox;
  mailer: Mailer;
  throttles: PortalThrottles;
  urls: PortalUrls;
  /** The built UI (dist/browser/portal-ui); the shell says "not built" when its manifest is missing. */
  ui: UiAssets;
  /** Embedded/dev mode: the outbox the dev page lists. Absent (production) → /dev/outbox is 404. */
  outbox?: OutboxSource;
  /** The OpenAPI 3.1 document of /api/portal/v1. */
  openApi: () => unknown;
  /** Express `trust proxy`: proxies in front (a number) or their addresses (docs: README, TRUST_PROXY). */
  trustProxy?: number | string;
  /** Metrics and tracing of this process; absent: none, at no cost. */
  observability?: Observability;
}

/** Builds the operator-portal Express app. No side effects: no listening, no timers, no connections. */
export function createApp(deps: PortalAppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (deps.trustProxy) app.set('trust proxy', deps.trustProxy);

  const secure = deps.urls.portal.startsWith('https://');
  const portalOrigin = new URL(deps.urls.portal).origin;
  const routeDeps: AccountRouteDeps = {
    prisma: deps.prisma,
    clock: deps.clock,
    logger: deps.logger,
    operators: deps.operators,
    guards: createGuards(),
    urls: deps.urls,
    accounts: deps.accounts,
    mailer: deps.mailer,
    throttles: deps.throttles,
    cookie: { secure },
  };
  const portalDeps: PortalRouteDeps = routeDeps;

  for (const handler of observe(deps.observability, 'operator-portal')) app.use(handler);
  app.use(requestId());
  app.use(httpLogger(deps.logger));
  app.use(securityHeaders({ widgetOrigin: new URL(deps.urls.widget).origin, hsts: secure }));
  app.use(healthRoutes({ ready: deps.ready }));
  // Dev-only pages: without an outbox (production) every /dev path is a plain 404, never the SPA shell.
  app.use(deps.outbox ? outboxRouter(deps.outbox) : express.Router().use('/dev', portalNotFound()));

  const api = express.Router();
  api.use(noStore);
  api.use(jsonBody({ limit: PORTAL_MAX_BODY }));
  // The body rule of every app: a string PostgreSQL cannot store (NUL, a lone surrogate) is a 400, never a 500.
  api.use(refuseUnstorableJson());
  api.use(sessionMiddleware(deps.accounts, { secure }));
  api.use(csrfProtection(portalOrigin));
  api.get('/openapi.json', (_req, res) => void res.json(deps.openApi()));
  api.use(accountRouter(routeDeps));
  api.use(operatorWriteGate({ prisma: deps.prisma, throttles: deps.throttles }));
  api.use(teamRouter(routeDeps));
  api.use(operatorRouter(portalDeps));
  api.use(adminRouter(portalDeps));
  api.use(portalNotFound());
  app.use(PORTAL_API_PREFIX, api);
  app.use('/api', portalNotFound());

  app.use(spaRouter(deps.ui));
  app.use(portalNotFound());
  app.use(portalErrorHandler(deps.logger));
  return app;
}

const noStore: RequestHandler = (_req, res, next) => {
  res.setHeader('Cache-Control', 'no-store');
  next();
};
