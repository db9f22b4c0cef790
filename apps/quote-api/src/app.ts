import express, { type Express, type RequestHandler } from 'express';
import { buildQuoteApiOpenApi, QUOTE_API_LIMITS } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import {
  clientRateLimit,
  errorHandler,
  healthRoutes,
  httpLogger,
  notFound,
  requestId,
  type HitCounter,
  type Logger,
} from '@expedition/http-kit';
import { createQuoteService, type Clock } from '@expedition/quoting';
import { catalogRouter } from './catalog/catalog.router';
import { checkoutApiRouter, checkoutPageRouter } from './checkout/checkout.router';
import { createCheckoutService } from './checkout/checkout.service';
import { coverageRouter } from './coverage/coverage.router';
import { quoteRouter } from './quotes/quote.router';

export interface QuoteApiDeps {
  prisma: PrismaClient;
  ready: () => Promise<void>;
  logger: Logger;
  clock: Clock;
  /** Public base URL of this API (checkout links and the OpenAPI `servers` entry). */
  publicUrl: string;
  /** Per-client counter for /api/v1 (in memory, or Redis when replicas share limits). */
  rateLimiter: HitCounter;
  rateLimitPerMinute?: number;
  /** Express `trust proxy` setting, so the client IP is right behind a load balancer. */
  trustProxy?: string;
  /** Extra /api/v1 routes mounted after the built-in ones (the payments module adds /purchase). */
  extraApiRoutes?: RequestHandler[];
}

/** Builds the quote-api Express app. No side effects: no listening, no timers, no connections opened. */
export function createApp(deps: QuoteApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (deps.trustProxy) app.set('trust proxy', deps.trustProxy);

  const quotes = createQuoteService({ prisma: deps.prisma, clock: deps.clock });
  const checkout = createCheckoutService({ prisma: deps.prisma, clock: deps.clock, publicUrl: deps.publicUrl });
  const openapi = JSON.stringify(buildQuoteApiOpenApi({ serverUrl: deps.publicUrl }));

  app.use(requestId());
  app.use(httpLogger(deps.logger));
  app.use(healthRoutes({ ready: deps.ready }));

  app.get('/', (_req, res) => {
    res.json({ service: 'quote-api', openapi: `${deps.publicUrl}/api/v1/openapi.json` });
  });
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.type('application/json').setHeader('Cache-Control', 'public, max-age=300').send(openapi);
  });

  const api = express.Router();
  api.use(clientRateLimit(deps.rateLimiter, deps.rateLimitPerMinute ?? QUOTE_API_LIMITS.requestsPerMinutePerClient));
  api.use(express.json({ limit: QUOTE_API_LIMITS.maxJsonBodyBytes, strict: true }));
  api.use(catalogRouter());
  api.use(quoteRouter({ quotes }));
  api.use(coverageRouter());
  api.use(checkoutApiRouter({ checkout }));
  for (const route of deps.extraApiRoutes ?? []) api.use(route);
  app.use('/api/v1', api);

  app.use(checkoutPageRouter({ checkout }));
  app.use(notFound());
  app.use(errorHandler(deps.logger));
  return app;
}
