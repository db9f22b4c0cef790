import express, { type Express } from 'express';
import {
  createEmbedGate,
  createEmbedGateSteps,
  createPreflightHandler,
  type ResolveKey,
  type ResolvedKey,
} from '@expedition/auth-publishable-key';
import type { PrismaClient } from '@expedition/db';
import { createPolicyTokens, DEV_POLICY_TOKEN_SECRET, type PolicyTokens } from '@expedition/fulfillment';
import { answerBeforeExpress, errorHandler, healthRoutes, notFound } from '@expedition/http-kit';
import { countGateDecisions, countQuotesCreated, observe, type Observability } from '@expedition/observability';
import type { Clock, Logger, RateLimiter } from '@expedition/platform';
import { createCheckoutLinks } from '@expedition/quoting';
import { addEmbedCheckoutRoute } from './checkout/embed-checkout.router';
import { EMBED_DOMAIN_ERRORS } from './http/embed-domain-errors';
import { embedPrelude } from './http/embed-prelude';
import {
  EMBED_CHECKOUT_PATH,
  EMBED_OPTIONS_PATH,
  EMBED_PAYMENTS_AUTHENTICATE_PATH,
  EMBED_PAYMENTS_CONFIRM_PATH,
  EMBED_PAYMENTS_PATH,
  EMBED_QUOTE_PATH,
} from './limits';
import { addEmbedOptionsRoute } from './options/embed-options.router';
import { createReadyOptionsCache } from './options/ready-options-cache';
import { createReadyPoll } from './options/ready-poll';
import { createEmbedPaymentService, type EmbedPaymentsOptions } from './payments/embed-payment.service';
import { addEmbedPaymentRoutes } from './payments/embed-payments.router';
import { addEmbedQuoteRoute } from './quotes/embed-quote.router';
import { createEmbedQuoteService } from './quotes/embed-quote.service';

export interface EmbedApiDeps {
  prisma: PrismaClient;
  ready: () => Promise<void>;
  logger: Logger;
  clock: Clock;
  /** Publishable key -> valid key or null (the cached Prisma store in production). */
  resolveKey: ResolveKey;
  /** One budget per key, shared by both routes (60 per minute; Redis-backed when replicas share it). */
  rateLimiter: RateLimiter;
  /** The widget iframe's origin(s): accepted for every valid key. */
  firstPartyOrigins: readonly string[];
  /** The provider dashboard (portal) origin(s): accepted for test keys only. */
  testDashboardOrigins: readonly string[];
  /** Express `trust proxy`: proxies in front (a number) or their addresses (docs: README, TRUST_PROXY). */
  trustProxy?: number | string;
  /** Called after an instant-eligible quote is stored (the composition root kicks the options worker). */
  onQuoteCreated?: (quoteId: string) => void;
  /** Ready payloads cached per process (they never change once ready). */
  readyOptionsCacheSize?: number;
  /** Tier 3 payment routes (the processor, Stripe.js publishable keys); absent → those routes are not mounted. */
  payments?: EmbedPaymentsOptions;
  /**
   * quote-api's public base URL: POST /api/embed/checkout (Tier 2) opens its 30-minute checkout links there, and
   * each plan option links its policy wording there (`policyTermsUrl`). Absent → that route is not mounted and the
   * options carry no wording link.
   */
  quoteApiUrl?: string;
  /** Called for every request the gate admits (fire-and-forget), e.g. the key's `lastUsedAt` recorder. */
  onKeyUsed?: (key: ResolvedKey) => void;
  /** Metrics (requests, gate decisions, quotes) and tracing of this process; absent: none, at no cost. */
  observability?: Observability;
  /**
   * Derives the access token of a policy a Tier 3 payment bought (POLICY_TOKEN_SECRET, the same as quote-api's; compose.ts
   * passes the configured one). Absent: the published development secret, as in tests and embedded mode.
   */
  policyTokens?: PolicyTokens;
  /**
   * false: the poll of a ready quote goes through Express like every request, instead of being answered before it
   * (options/ready-poll.ts). For the test that compares both paths answer by answer; the default is true.
   */
  readyPollBeforeExpress?: boolean;
}

/** Builds the embed-api Express app. No side effects: no listening, no timers, no connections, no worker. */
export function createApp(deps: EmbedApiDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  if (deps.trustProxy) app.set('trust proxy', deps.trustProxy);

  const gateOptions = {
    resolveKey: deps.resolveKey,
    rateLimiter: deps.rateLimiter,
    firstPartyOrigins: deps.firstPartyOrigins,
    testDashboardOrigins: deps.testDashboardOrigins,
    logger: deps.logger,
    onAdmitted: deps.onKeyUsed,
  };
  // Two gates over one resolver and ONE limiter, so the budget is shared by every route. They differ only in where
  // the key may come from: the options route (a GET) also reads `?pk`, every POST route the header only.
  const metrics = deps.observability?.metrics;
  const readyOptions = createReadyOptionsCache(deps.readyOptionsCacheSize);
  const headerKeyGate = countGateDecisions(createEmbedGate({ ...gateOptions, allowQueryKey: () => false }), metrics);
  const optionsGate = countGateDecisions(createEmbedGate({ ...gateOptions, allowQueryKey: () => true }), metrics);
  const payments = deps.payments
    ? createEmbedPaymentService({
        ...deps.payments,
        prisma: deps.prisma,
        clock: deps.clock,
        logger: deps.logger,
        quoteApiUrl: deps.quoteApiUrl,
        policyTokens: deps.policyTokens ?? createPolicyTokens({ secret: DEV_POLICY_TOKEN_SECRET }),
      })
    : undefined;
  const paymentPaths = payments
    ? [EMBED_PAYMENTS_PATH, EMBED_PAYMENTS_CONFIRM_PATH, EMBED_PAYMENTS_AUTHENTICATE_PATH]
    : [];
  const checkoutLinks = deps.quoteApiUrl
    ? createCheckoutLinks({ prisma: deps.prisma, clock: deps.clock, publicUrl: deps.quoteApiUrl })
    : undefined;
  const checkoutPaths = checkoutLinks ? [EMBED_CHECKOUT_PATH] : [];
  const postPaths = [...checkoutPaths, ...paymentPaths];
  const quotes = createEmbedQuoteService({
    prisma: deps.prisma,
    clock: deps.clock,
    onQuoteCreated: deps.onQuoteCreated,
  });

  for (const handler of observe(deps.observability, APP_NAME)) app.use(handler);
  // Request id, access log and no-store under /api/embed, as one layer (see embedPrelude).
  app.use(embedPrelude(deps.logger));
  // The widget's poll, the busiest route, is the first layer after the prelude. Every route goes straight on the app
  // rather than in a Router mounted without a path: Express enters every such Router on every request (and leaves one
  // without a match a tick later). Paths and methods do not overlap, so the order changes no answer.
  addEmbedOptionsRoute(app, {
    gate: optionsGate,
    prisma: deps.prisma,
    cache: readyOptions,
    quoteApiUrl: deps.quoteApiUrl,
  });
  app.use(healthRoutes({ ready: deps.ready }));
  app.get('/', (_req, res) => {
    res.json({
      service: 'embed-api',
      routes: [`POST ${EMBED_QUOTE_PATH}`, `GET ${EMBED_OPTIONS_PATH}`, ...postPaths.map((p) => `POST ${p}`)],
    });
  });

  app.options([EMBED_QUOTE_PATH, EMBED_OPTIONS_PATH, ...postPaths], createPreflightHandler());
  if (metrics) app.post(EMBED_QUOTE_PATH, ...countQuotesCreated(metrics, 'embed', [200]));
  addEmbedQuoteRoute(app, { gate: headerKeyGate, quotes, logger: deps.logger });
  if (checkoutLinks) addEmbedCheckoutRoute(app, { gate: headerKeyGate, prisma: deps.prisma, links: checkoutLinks });
  if (payments) addEmbedPaymentRoutes(app, { gate: headerKeyGate, payments });

  app.use(notFound());
  app.use(errorHandler(deps.logger, { domainErrors: EMBED_DOMAIN_ERRORS }));

  // The poll of a ready quote is answered before Express (options/ready-poll.ts), except when requests are traced:
  // its span is opened by Express middleware (observe), so every request then goes through Express.
  if (deps.readyPollBeforeExpress !== false && !deps.observability?.tracing?.enabled) {
    answerBeforeExpress(app, (express) =>
      createReadyPoll({
        gate: createEmbedGateSteps(gateOptions),
        cache: readyOptions,
        logger: deps.logger,
        metrics,
        app: APP_NAME,
        express,
      }),
    );
  }
  return app;
}

const APP_NAME = 'embed-api';
