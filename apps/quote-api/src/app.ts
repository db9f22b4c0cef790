import express, { type Express } from 'express';
import { QUOTE_API_LIMITS } from '@expedition/contracts';
import { buildAcpOpenApi, buildQuoteApiOpenApi } from '@expedition/contracts/openapi';
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
import { countQuotesCreated, observe } from '@expedition/observability';
import { acpRouter } from './acp/acp.router';
import { catalogRouter } from './catalog/catalog.router';
import { checkoutApiRouter, checkoutPageRouter, type CheckoutUi } from './checkout/checkout.router';
import { coverageGapRouter } from './coverage-gap/coverage-gap.router';
import { discoveryRouter } from './discovery/discovery.router';
import { QUOTE_API_DOMAIN_ERRORS } from './quoting-errors';
import { wordingRouter } from './documents/wording.router';
import { mcpRouter } from './mcp/mcp.router';
import { policiesRouter, policyPageRouter } from './policies/policies.router';
import { purchaseRouter } from './purchase/purchase.router';
import { createQuoteApiServices, type QuoteApiDeps } from './quote-api.services';
import { quoteRouter } from './quotes/quote.router';

/** Builds the quote-api Express app. No side effects: no listening, no timers, no connections opened. */
export function createApp(deps: QuoteApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (deps.trustProxy) app.set('trust proxy', deps.trustProxy);

  const services = createQuoteApiServices(deps);
  const { processor } = deps.payments;
  const rateLimitPerMinute = deps.rateLimitPerMinute ?? QUOTE_API_LIMITS.requestsPerMinutePerClient;
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
  api.use(clientRateLimit(deps.rateLimiter, rateLimitPerMinute));
  api.use(jsonBody({ limit: QUOTE_API_LIMITS.maxJsonBodyBytes }));
  // Before any route: a body PostgreSQL cannot store is refused whole, so nothing is half-written (issue 7 §3).
  api.use(refuseUnstorableJson());
  api.use(catalogRouter({ catalog: services.catalog }));
  if (deps.observability?.metrics)
    api.post('/quotes', ...countQuotesCreated(deps.observability.metrics, 'api', [200, 201]));
  api.use(quoteRouter({ quotes: services.quotes }));
  api.use(coverageGapRouter());
  api.use(checkoutApiRouter({ checkout: services.checkout }));
  api.use(purchaseRouter({ purchases: services.purchases, idempotency: services.purchaseIdempotency }));
  api.use(policiesRouter({ policies: services.policies }));
  app.use('/api/v1', api);
  app.use('/mcp', mcpRouter({ services, rateLimit: clientRateLimit(deps.rateLimiter, rateLimitPerMinute) }));
  app.use(
    '/acp/v1',
    acpRouter({
      service: services.acpSessions,
      auth: services.agentKeys,
      idempotency: services.acpIdempotency,
      orderLinks: services.acpOrderLinks,
      rateLimiter: deps.rateLimiter,
      rateLimitPerMinute,
      mode: services.mode,
      clock: deps.clock,
      logFailure: services.logFailure,
      openapi: JSON.stringify(buildAcpOpenApi({ serverUrl: deps.publicUrl })),
    }),
  );

  const ui: CheckoutUi =
    processor.name === 'stripe'
      ? { kind: 'stripe', publishableKeys: deps.payments.stripePublishableKeys ?? {} }
      : { kind: 'card-form', testMode: true };
  // The policyholder's pages: the policy (opened by its token) and each plan's public policy wording.
  app.use(
    policyPageRouter({ policies: services.policies, rateLimit: clientRateLimit(deps.rateLimiter, rateLimitPerMinute) }),
  );
  app.use(wordingRouter({ publicUrl: deps.publicUrl }));
  app.use(checkoutPageRouter({ checkout: services.checkout, ui, receipts: services.checkoutReceipts }));
  app.use(notFound());
  app.use(errorHandler(deps.logger, { domainErrors: QUOTE_API_DOMAIN_ERRORS, logFailure: services.logFailure }));
  return app;
}
