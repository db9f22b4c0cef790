import type { Mode } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import {
  createMoneyPath,
  createPolicyTokens,
  DEV_POLICY_TOKEN_SECRET,
  type MoneyPath,
  type PolicyTokens,
} from '@expedition/fulfillment';
import { createFailureLog, type FailureLog } from '@expedition/http-kit';
import type { Metrics, Observability } from '@expedition/observability';
import type { PaymentProcessor } from '@expedition/payments';
import type { Clock, Logger, RateLimiter } from '@expedition/platform';
import { createQuoteService } from '@expedition/quoting';
import { createOrderLinks, type OrderLinks } from './acp/acp-order';
import { createAcpService, type AcpService } from './acp/acp.service';
import { createAgentKeyAuth, type AgentKeyAuth } from './acp/agent-keys';
import { createCatalogService, type CatalogService } from './catalog/catalog.service';
import { createCheckoutService, type CheckoutService } from './checkout/checkout.service';
import {
  createCheckoutReceiptRepository,
  type CheckoutReceiptRepository,
} from './checkout/checkout-receipt.repository';
import { createPolicyService, type PolicyService } from './policies/policy.service';
import {
  createIdempotencyRepository,
  createIdempotencyStore,
  type IdempotencyRepository,
  type IdempotencyStore,
} from './purchase/idempotency.repository';
import { createMppChallengeRepository } from './purchase/mpp-challenge.repository';
import { createPurchaseService, type MppSettings, type PurchaseService } from './purchase/purchase.service';
import { createApiQuoteService, type ApiQuoteService } from './quotes/api-quote.service';

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

/**
 * quote-api's use cases, built once from the deps: /api/v1, the MCP server (at /mcp and over stdio) and /acp/v1 all
 * call these (never HTTP to ourselves), so a quote, a checkout link, a purchase or a policy look-up is the same
 * whichever channel asks. The stores beside them belong to one edge each (Idempotency-Key answers, agent keys, the
 * checkout link's receipt).
 */
export interface QuoteApiServices {
  /** quote-api's public base URL (links to policy wording, checkout links). */
  publicUrl: string;
  logger: Logger;
  /**
   * How a failed request or MCP tool call is logged (the API's, ACP's and MCP's error handlers share it): in full, a
   * database outage's at most once per 10 s for the app (createFailureLog).
   */
  logFailure: FailureLog;
  /** Payment mode of quotes created here (QUOTE_API_MODE). */
  mode: Mode;
  /** Counts quotes created per channel; absent (no observability, e.g. the stdio entry): not counted. */
  metrics?: Pick<Metrics, 'quoteCreated'>;
  catalog: CatalogService;
  quotes: ApiQuoteService;
  checkout: CheckoutService;
  purchases: PurchaseService;
  policies: PolicyService;
  acpSessions: AcpService;
  /** POST /api/v1/purchase's kept receipts (Idempotency-Key). */
  purchaseIdempotency: IdempotencyRepository;
  /** /acp/v1's kept answers (Idempotency-Key, scoped per agent key). */
  acpIdempotency: IdempotencyStore;
  agentKeys: AgentKeyAuth;
  /** An ACP order's link to the policy, with its access token (acp-order.ts). */
  acpOrderLinks: OrderLinks;
  checkoutReceipts: CheckoutReceiptRepository;
}

/** The one wiring of quote-api's services: createApp (compose.ts) and the stdio MCP server (mcp.stdio.ts) use it. */
export function createQuoteApiServices(deps: QuoteApiDeps): QuoteApiServices {
  const { prisma, clock, logger, publicUrl } = deps;
  const { processor, mpp } = deps.payments;
  const mode = deps.mode ?? 'test';
  const metrics = deps.observability?.metrics;
  const policyTokens = deps.policyTokens ?? createPolicyTokens({ secret: DEV_POLICY_TOKEN_SECRET });
  const moneyPath =
    deps.payments.moneyPath ?? createMoneyPath({ prisma, clock, logger, processor, quoteApiUrl: publicUrl });
  const quotes = createApiQuoteService({ quotes: createQuoteService({ prisma, clock }), prisma, clock, mode });
  const acpOrderLinks = createOrderLinks(policyTokens);
  return {
    publicUrl,
    logger,
    logFailure: createFailureLog(logger, clock),
    mode,
    metrics,
    catalog: createCatalogService({ publicUrl }),
    quotes,
    checkout: createCheckoutService({ prisma, clock, publicUrl, payments: { processor, moneyPath } }),
    purchases: createPurchaseService({
      prisma,
      clock,
      processor,
      moneyPath,
      challenges: createMppChallengeRepository({ prisma, clock }),
      mpp,
      logger,
      publicUrl,
      policyTokens,
    }),
    policies: createPolicyService({ prisma, publicUrl, policyTokens }),
    acpSessions: createAcpService({
      prisma,
      clock,
      logger,
      quotes,
      processor,
      moneyPath,
      publicUrl,
      orderLinks: acpOrderLinks,
      networkId: mpp.networkId,
      metrics,
    }),
    purchaseIdempotency: createIdempotencyRepository({ prisma, clock, policyTokens }),
    acpIdempotency: createIdempotencyStore({ prisma, clock }),
    agentKeys: createAgentKeyAuth({ prisma, clock }),
    acpOrderLinks,
    checkoutReceipts: createCheckoutReceiptRepository(prisma, publicUrl, policyTokens),
  };
}
