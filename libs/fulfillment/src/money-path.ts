import type { Logger } from 'pino';
import type { PrismaClient } from '@expedition/db';
import type { PaymentProcessor } from '@expedition/payments';
import type { Clock } from '@expedition/platform';
import { createAttemptResolver, type ReconcileResult } from './attempt-resolver';
import { createFulfillment } from './fulfillment.service';
import type { FulfillmentDeps } from './fulfillment-types';
import { createPaymentClaims } from './payment-claims';
import { createPaymentGuard } from './payment-guard';
import { createPaymentReconciler } from './payment-reconciler';
import { createRefunds } from './refunds';

export interface MoneyPathDeps {
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  processor: Pick<PaymentProcessor, 'name' | 'retrievePayment' | 'refundPayment' | 'findPayments' | 'searchLagMs'>;
  claimLeaseMs?: number;
  refundRetryAfterMs?: number;
  newPolicyNumber?: FulfillmentDeps['newPolicyNumber'];
  newWebhookEventId?: FulfillmentDeps['newWebhookEventId'];
  /** quote-api's public URL, for the certificate link in `policy.issued` (FulfillmentDeps.quoteApiUrl). */
  quoteApiUrl?: string;
  /** Counts what the reconciliation of unfinished attempts found (payment_reconciliations_total). */
  onReconciled?: (result: ReconcileResult, mode: 'test' | 'live') => void;
}

/** Everything an app needs to take and record payments, wired once: claims, guard, fulfillment, refunds, reconciler. */
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
  const resolver = createAttemptResolver({
    prisma,
    clock,
    logger,
    processor,
    fulfillment,
    onReconciled: deps.onReconciled,
  });
  const guard = createPaymentGuard({ claims, resolver, logger });
  const reconciler = createPaymentReconciler({ prisma, clock, logger, claims, resolver, processor, fulfillment });
  return { claims, refunds, fulfillment, guard, reconciler };
}

export type MoneyPath = ReturnType<typeof createMoneyPath>;
