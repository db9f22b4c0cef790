import type { Logger } from 'pino';
import type { PrismaClient } from '@expedition/db';
import { PaymentProcessorError, type PaymentProcessor } from '@expedition/payments';
import type { Clock } from '@expedition/platform';
import type { AttemptResolver } from './attempt-resolver';
import type { Fulfillment } from './fulfillment.service';
import { succeededPaymentOf } from './fulfillment-types';
import type { PaymentClaims } from './payment-claims';

/** A payment we started is asked about again this long after it was last looked at (and never sooner). */
export const PAYMENT_RECHECK_MS = 10 * 60_000;
/** Payments we started are followed this long; Stripe's own retries of a lost event end after three days. */
const PAYMENT_FOLLOW_MS = 7 * 24 * 60 * 60_000;

export interface ReconcileReport {
  /** Unfinished attempts looked at, and what each came to. */
  attempts: { paid: number; inFlight: number; noCharge: number; skipped: number };
  /** Payments we started and never saw end, asked about again; `charged`: the processor said succeeded. */
  payments: { checked: number; charged: number };
}

export interface PaymentReconcilerDeps {
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  claims: PaymentClaims;
  resolver: AttemptResolver;
  processor: Pick<PaymentProcessor, 'retrievePayment'>;
  fulfillment: Pick<Fulfillment, 'recordSucceededPayment'>;
}

/**
 * Accounts for every charge without the processor's events (docs/decisions.md, "One charge per quote through any
 * crash"). One round:
 * 1. every started attempt whose lease lapsed is taken under its claim (so a payer and any number of reconciler
 *    replicas serialise on the quote) and resolved from the processor's books;
 * 2. every payment we started (a Payment row) that never reached an end, last looked at over 10 minutes ago, is
 *    retrieved: a success is recorded (the policy, or a refund of a second charge).
 * Both steps are idempotent: recording is unique per processor payment, refunds are keyed `refund_<paymentId>`.
 */
export function createPaymentReconciler(deps: PaymentReconcilerDeps) {
  async function runOnce(limit = 50): Promise<ReconcileReport> {
    const report: ReconcileReport = {
      attempts: { paid: 0, inFlight: 0, noCharge: 0, skipped: 0 },
      payments: { checked: 0, charged: 0 },
    };
    for (const quoteId of await deps.claims.unfinished(limit)) await reconcileAttempt(quoteId, report);
    await recheckPayments(limit, report);
    return report;
  }

  async function reconcileAttempt(quoteId: string, report: ReconcileReport) {
    const acquired = await deps.claims.acquire(quoteId);
    if (acquired.kind !== 'held') {
      report.attempts.skipped++;
      return;
    }
    const { claim } = acquired;
    if (!claim.startedAt) {
      await deps.claims.release(claim, 'unknown');
      report.attempts.skipped++;
      return;
    }
    let end: 'charged' | 'unknown' | 'none' = 'unknown';
    try {
      const resolution = await deps.resolver.resolve(claim);
      if (resolution === 'paid') report.attempts.paid++;
      else if (resolution === 'in_flight') report.attempts.inFlight++;
      else report.attempts.noCharge++;
      end = resolution === 'paid' ? 'charged' : resolution === 'free' ? 'none' : 'unknown';
    } finally {
      await deps.claims.release(claim, end);
    }
  }

  async function recheckPayments(limit: number, report: ReconcileReport) {
    const now = deps.clock.now().getTime();
    const due = await deps.prisma.payment.findMany({
      where: {
        status: { in: ['pending', 'processing', 'requires_action'] },
        createdAt: { gte: new Date(now - PAYMENT_FOLLOW_MS) },
        updatedAt: { lte: new Date(now - PAYMENT_RECHECK_MS) },
      },
      orderBy: { updatedAt: 'asc' },
      take: limit,
    });
    for (const row of due) {
      report.payments.checked++;
      let status: string;
      try {
        status = (await deps.processor.retrievePayment({ paymentId: row.processorPaymentId, mode: row.mode })).status;
      } catch (err) {
        if (!(err instanceof PaymentProcessorError)) throw err;
        deps.logger.warn({ paymentId: row.processorPaymentId, code: err.code }, 'could not re-check a payment');
        status = 'unknown';
      }
      if (status === 'succeeded') {
        report.payments.charged++;
        await deps.fulfillment.recordSucceededPayment(succeededPaymentOf(row));
        continue;
      }
      // Looked at now: the next look is PAYMENT_RECHECK_MS away (the row's updated_at is its place in the queue).
      await deps.prisma.payment.updateMany({
        where: { id: row.id, updatedAt: row.updatedAt },
        data: { updatedAt: deps.clock.now() },
      });
    }
  }

  return { runOnce };
}

export type PaymentReconciler = ReturnType<typeof createPaymentReconciler>;
