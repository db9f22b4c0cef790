import express, { type Express } from 'express';
import { QUOTE_API_LIMITS } from '@expedition/contracts';
import { buildQuoteApiOpenApi } from '@expedition/contracts/openapi';
import type { Mode } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import { listDestinations } from '@expedition/domain-pricing';
import {
  clientRateLimit,
  errorHandler,
  faviconRoute,
  healthRoutes,
  httpLogger,
  jsonBody,
  notFound,
  refuseUnstorableJson,
  requestId,
} from '@expedition/http-kit';
import { countQuotesCreated, observe, type Observability } from '@expedition/observability';
import {
  createMoneyPath,
  createPolicyTokens,
  DEV_POLICY_TOKEN_SECRET,
  type MoneyPath,
  type PolicyTokens,
} from '@expedition/fulfillment';
import type { PaymentProcessor } from '@expedition/payments';
import type { Clock, Logger, RateLimiter } from '@expedition/platform';
import { createQuoteService } from '@expedition/quoting';
import { catalogRouter } from './catalog/catalog.router';
import { checkoutApiRouter, checkoutPageRouter, type CheckoutUi } from './checkout/checkout.router';
import { createCheckoutService } from './checkout/checkout.service';
import { createCheckoutReceiptRepository } from './checkout/checkout-receipt.repository';
import { coverageGapRouter } from './coverage-gap/coverage-gap.router';
import { discoveryRouter } from './discovery/discovery.router';
import { createIdempotencyRepository } from './purchase/idempotency.repository';
import { createMppChallengeRepository } from './purchase/mpp-challenge.repository';
import { purchaseRouter } from './purchase/purchase.router';
import { createPurchaseService, type MppSettings } from './purchase/purchase.service';
import { quoteRouter } from './quotes/quote.router';
import { mcpRouter } from './mcp/mcp.router';
import { acpApi } from './acp/acp.module';
import { policiesRouter, policyPageRouter } from './policies/policies.router';
import { QUOTE_API_DOMAIN_ERRORS } from './quoting-errors';
import { wordingRouter } from './documents/wording.router';
import { createPolicyService } from './policies/policy.service';

export interface QuoteApiDeps {
  prisma: PrismaClient;
  ready: () => Promise<void>;
  logger: Logger;
  clock: Clock;
  /** Public base URL of this API (checkout links and the OpenAPI `servers` entry). */
  publicUrl: string;
  /** Per-client counter for /api/v1 (in memory, or Redis when replicas share limits). */
  rateLimiter: RateLimiter;
  rateLimitPerMinute?: number;
  /** Payment mode of quotes created here: `live` charges real money (Stripe live keys). Default test. */
  mode?: Mode;
  /** Express `trust proxy` setting, so the client IP is right behind a load balancer. */
  /** Express `trust proxy`: proxies in front (a number) or their addresses (docs: README, TRUST_PROXY). */
  trustProxy?: number | string;
  payments: {
    processor: PaymentProcessor;
    /** The per-quote payment claim, fulfillment and refunds; built from the deps when absent. */
    moneyPath?: MoneyPath;
    mpp: MppSettings;
    /** Stripe mode: publishable keys for the checkout page's Payment Element. */
    stripePublishableKeys?: { test?: string; live?: string };
  };
  /** Metrics (requests, quotes) and tracing of this process; absent: none, at no cost. */
  observability?: Observability;
  /**
   * Derives policies' access tokens (POLICY_TOKEN_SECRET; compose.ts passes the configured one). Absent: the published
   * development secret, as in tests and embedded mode.
   */
  policyTokens?: PolicyTokens;
}

/** The deps' policy tokens, or those of the published development secret. */
export function policyTokensOf(deps: Pick<QuoteApiDeps, 'policyTokens'>): PolicyTokens {
  return deps.policyTokens ?? createPolicyTokens({ secret: DEV_POLICY_TOKEN_SECRET });
}

/** Builds the quote-api Express app. No side effects: no listening, no timers, no connections opened. */
export function createApp(deps: QuoteApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (deps.trustProxy) app.set('trust proxy', deps.trustProxy);

  const quotes = createQuoteService({ prisma: deps.prisma, clock: deps.clock });
  const { processor, mpp } = deps.payments;
  const moneyPath =
    deps.payments.moneyPath ??
    createMoneyPath({
      prisma: deps.prisma,
      clock: deps.clock,
      logger: deps.logger,
      processor,
      quoteApiUrl: deps.publicUrl,
    });
  const policyTokens = policyTokensOf(deps);
  const policies = createPolicyService({ prisma: deps.prisma, publicUrl: deps.publicUrl, policyTokens });
  const checkout = createCheckoutService({
    prisma: deps.prisma,
    clock: deps.clock,
    publicUrl: deps.publicUrl,
    payments: { processor, moneyPath },
  });
  const purchases = createPurchaseService({
    prisma: deps.prisma,
    clock: deps.clock,
    processor,
    moneyPath,
    challenges: createMppChallengeRepository({ prisma: deps.prisma, clock: deps.clock }),
    mpp,
    logger: deps.logger,
    publicUrl: deps.publicUrl,
    policyTokens,
  });
  const idempotency = createIdempotencyRepository({ prisma: deps.prisma, clock: deps.clock, policyTokens });
  // The agent rules quote the catalog (destinations, default durations): generated from it, never copied.
  const openapi = JSON.stringify(
    buildQuoteApiOpenApi({ serverUrl: deps.publicUrl, catalog: { destinations: listDestinations() } }),
  );

  for (const handler of observe(deps.observability, 'quote-api')) app.use(handler);
  app.use(requestId());
  app.use(httpLogger(deps.logger));
  app.use(healthRoutes({ ready: deps.ready }));
  app.use(faviconRoute());

  app.get('/', (_req, res) => {
    res.json({ service: 'quote-api', openapi: `${deps.publicUrl}/api/v1/openapi.json` });
  });
  app.get('/api/v1/openapi.json', (_req, res) => {
    res.type('application/json').setHeader('Cache-Control', 'public, max-age=300').send(openapi);
  });

  app.use(discoveryRouter({ publicUrl: deps.publicUrl, catalog: { destinations: listDestinations() } }));

  const api = express.Router();
  api.use(clientRateLimit(deps.rateLimiter, deps.rateLimitPerMinute ?? QUOTE_API_LIMITS.requestsPerMinutePerClient));
  api.use(jsonBody({ limit: QUOTE_API_LIMITS.maxJsonBodyBytes }));
  // Before any route: a body PostgreSQL cannot store is refused whole, so nothing is half-written (issue 7 §3).
  api.use(refuseUnstorableJson());
  api.use(catalogRouter({ publicUrl: deps.publicUrl }));
  if (deps.observability?.metrics)
    api.post('/quotes', ...countQuotesCreated(deps.observability.metrics, 'api', [200, 201]));
  api.use(quoteRouter({ quotes, prisma: deps.prisma, clock: deps.clock, mode: deps.mode ?? 'test' }));
  api.use(coverageGapRouter());
  api.use(checkoutApiRouter({ checkout }));
  api.use(purchaseRouter({ purchases, idempotency }));
  api.use(policiesRouter({ policies }));
  app.use('/api/v1', api);
  const metrics = deps.observability?.metrics;
  app.use(
    '/mcp',
    mcpRouter({
      quotes,
      checkout,
      purchases,
      policies,
      publicUrl: deps.publicUrl,
      prisma: deps.prisma,
      clock: deps.clock,
      logger: deps.logger,
      mode: deps.mode ?? 'test',
      metrics,
      rateLimit: clientRateLimit(
        deps.rateLimiter,
        deps.rateLimitPerMinute ?? QUOTE_API_LIMITS.requestsPerMinutePerClient,
      ),
    }),
  );

  app.use(
    '/acp/v1',
    acpApi({
      prisma: deps.prisma,
      clock: deps.clock,
      logger: deps.logger,
      quotes,
      processor,
      moneyPath,
      publicUrl: deps.publicUrl,
      policyTokens,
      networkId: mpp.networkId,
      rateLimiter: deps.rateLimiter,
      rateLimitPerMinute: deps.rateLimitPerMinute ?? QUOTE_API_LIMITS.requestsPerMinutePerClient,
      mode: deps.mode ?? 'test',
      metrics,
    }),
  );

  const ui: CheckoutUi =
    processor.name === 'stripe'
      ? { kind: 'stripe', publishableKeys: deps.payments.stripePublishableKeys ?? {} }
      : { kind: 'card-form', testMode: true };
  // The policyholder's pages: the policy (opened by its token) and each plan's public policy wording.
  app.use(
    policyPageRouter({
      policies,
      rateLimit: clientRateLimit(
        deps.rateLimiter,
        deps.rateLimitPerMinute ?? QUOTE_API_LIMITS.requestsPerMinutePerClient,
      ),
    }),
  );
  app.use(wordingRouter({ publicUrl: deps.publicUrl }));
  app.use(
    checkoutPageRouter({
      checkout,
      ui,
      receipts: createCheckoutReceiptRepository(deps.prisma, deps.publicUrl, policyTokens),
    }),
  );
  app.use(notFound());
  app.use(errorHandler(deps.logger, { domainErrors: QUOTE_API_DOMAIN_ERRORS }));
  return app;
}
