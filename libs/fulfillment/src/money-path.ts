import type { Logger } from 'pino';
import type { PrismaClient } from '@expedition/db';
import type { PaymentProcessor } from '@expedition/payments';
import type { Clock } from '@expedition/platform';
import { createFulfillment } from './fulfillment.service';
import type { FulfillmentDeps } from './fulfillment-types';
import { createPaymentClaims } from './payment-claims';
import { createPaymentGuard } from './payment-guard';
import { createRefunds } from './refunds';

export interface MoneyPathDeps {
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  processor: Pick<PaymentProcessor, 'name' | 'retrievePayment' | 'refundPayment'>;
  claimLeaseMs?: number;
  refundRetryAfterMs?: number;
  newPolicyNumber?: FulfillmentDeps['newPolicyNumber'];
  newWebhookEventId?: FulfillmentDeps['newWebhookEventId'];
  /** quote-api's public URL, for the certificate link in `policy.issued` (FulfillmentDeps.quoteApiUrl). */
  quoteApiUrl?: string;
}

/** Everything an app needs to take and record payments, wired once: claims, guard, fulfillment, refunds. */
export function createMoneyPath(deps: MoneyPathDeps) {
  const { prisma, clock, logger, processor } = deps;
  const claims = createPaymentClaims({ prisma, clock, leaseMs: deps.claimLeaseMs });
  const refunds = createRefunds({ prisma, clock, logger, processor, retryAfterMs: deps.refundRetryAfterMs });
  const fulfillment = createFulfillment({
    prisma,
    clock,
    logger,
    processorName: processor.name,
    refunds,
    verifier: processor,
    newPolicyNumber: deps.newPolicyNumber,
    newWebhookEventId: deps.newWebhookEventId,
    quoteApiUrl: deps.quoteApiUrl,
  });
  const guard = createPaymentGuard({ prisma, claims, processor, fulfillment, logger });
  return { claims, refunds, fulfillment, guard };
}

export type MoneyPath = ReturnType<typeof createMoneyPath>;
