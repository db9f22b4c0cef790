import type { Mode } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import type { Metrics } from '@expedition/observability';
import { createMoneyPath } from '@expedition/fulfillment';
import type { Clock, Logger } from '@expedition/platform';
import { createQuoteService, type QuoteService } from '@expedition/quoting';
import { policyTokensOf, type QuoteApiDeps } from '../app';
import { createCheckoutService, type CheckoutService } from '../checkout/checkout.service';
import { createPolicyService, type PolicyService } from '../policies/policy.service';
import { createMppChallengeRepository } from '../purchase/mpp-challenge.repository';
import { createPurchaseService, type PurchaseService } from '../purchase/purchase.service';

/** What the MCP tools call: the very services behind /api/v1 (never HTTP to ourselves). */
export interface McpServices {
  quotes: QuoteService;
  checkout: CheckoutService;
  purchases: PurchaseService;
  policies: PolicyService;
  /** quote-api's public base URL (links to policy wording). */
  publicUrl: string;
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  /** Payment mode of quotes created here (as POST /api/v1/quotes). */
  mode: Mode;
  /** Counts quotes created by `create_quote` (source `mcp`); absent (the stdio entry serves no metrics): not counted. */
  metrics?: Pick<Metrics, 'quoteCreated'>;
}

/**
 * The services built the way createApp builds them, for the stdio entry (tools/mcp), which has no Express app.
 * The HTTP endpoint at /mcp gets createApp's own instances instead.
 */
export function createMcpServices(deps: QuoteApiDeps): McpServices {
  const { processor, mpp } = deps.payments;
  const policyTokens = policyTokensOf(deps);
  const moneyPath =
    deps.payments.moneyPath ??
    createMoneyPath({
      prisma: deps.prisma,
      clock: deps.clock,
      logger: deps.logger,
      processor,
      quoteApiUrl: deps.publicUrl,
    });
  return {
    quotes: createQuoteService({ prisma: deps.prisma, clock: deps.clock }),
    checkout: createCheckoutService({
      prisma: deps.prisma,
      clock: deps.clock,
      publicUrl: deps.publicUrl,
      payments: { processor, moneyPath },
    }),
    purchases: createPurchaseService({
      prisma: deps.prisma,
      clock: deps.clock,
      processor,
      moneyPath,
      challenges: createMppChallengeRepository({ prisma: deps.prisma, clock: deps.clock }),
      mpp,
      logger: deps.logger,
      publicUrl: deps.publicUrl,
      policyTokens,
    }),
    policies: createPolicyService({ prisma: deps.prisma, publicUrl: deps.publicUrl, policyTokens }),
    publicUrl: deps.publicUrl,
    prisma: deps.prisma,
    clock: deps.clock,
    logger: deps.logger,
    mode: deps.mode ?? 'test',
  };
}
