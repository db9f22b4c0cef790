import type { Logger } from 'pino';
import type { PaymentChannel, PrismaClient } from '@expedition/db';
import { PaymentProcessorError, type PaymentProcessor, type RetrievedPayment } from '@expedition/payments';
import type { Clock } from '@expedition/platform';
import type { Fulfillment } from './fulfillment.service';
import type { SucceededPayment } from './fulfillment-types';
import type { HeldClaim } from './payment-claims';

/** What an unfinished attempt came to: a charge that is now recorded, one still in flight, or no charge at all. */
export type Resolution = 'paid' | 'in_flight' | 'free';

/** What the resolver did with a charge the processor holds for a quote (payment_reconciliations_total). */
export type ReconcileResult = 'recorded' | 'refunded' | 'no_charge' | 'in_flight';

export interface AttemptResolverDeps {
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  processor: Pick<PaymentProcessor, 'findPayments' | 'retrievePayment' | 'searchLagMs'>;
  fulfillment: Pick<Fulfillment, 'recordSucceededPayment'>;
  onReconciled?: (result: ReconcileResult, mode: 'test' | 'live') => void;
}

const CHANNELS: readonly PaymentChannel[] = ['checkout_link', 'mpp', 'embed', 'acp'];

/**
 * Resolves an attempt that was started and never finished (its holder crashed, or the processor did not answer) by
 * asking the processor, never by guessing: every payment the processor holds for the quote is listed (its search by
 * the quote id in the metadata, and the payment the claim named); each succeeded one that no record of ours holds is
 * recorded through fulfillment, which makes the quote's one policy of the first and refunds any other. The attempt is
 * chargeless only when the processor lists no charge, none in flight, and the attempt is older than the processor's
 * search lag (docs/decisions.md, "One charge per quote through any crash").
 */
export function createAttemptResolver(deps: AttemptResolverDeps) {
  async function resolve(claim: Pick<HeldClaim, 'quoteId' | 'startedAt' | 'inheritedPaymentId'>): Promise<Resolution> {
    const quote = await deps.prisma.quote.findUnique({ where: { id: claim.quoteId }, select: { mode: true } });
    if (!quote) return 'free';
    let payments: RetrievedPayment[];
    try {
      payments = await paymentsOf(claim.quoteId, quote.mode, claim.inheritedPaymentId);
    } catch (err) {
      deps.logger.warn(
        { quoteId: claim.quoteId, code: err instanceof PaymentProcessorError ? err.code : undefined },
        'could not ask the processor what an unfinished payment attempt charged',
      );
      return 'in_flight';
    }
    const charged = payments.filter((p) => p.status === 'succeeded');
    await recordUnrecorded(claim.quoteId, quote.mode, charged);
    if (payments.some((p) => p.status === 'processing')) {
      deps.onReconciled?.('in_flight', quote.mode);
      return 'in_flight';
    }
    if (charged.length > 0) return 'paid';
    const age = claim.startedAt ? deps.clock.now().getTime() - claim.startedAt.getTime() : Infinity;
    if (age < deps.processor.searchLagMs) return 'in_flight';
    deps.onReconciled?.('no_charge', quote.mode);
    return 'free';
  }

  async function paymentsOf(quoteId: string, mode: 'test' | 'live', named: string | null) {
    const found = await deps.processor.findPayments({ quoteId, mode });
    if (!named || found.some((p) => p.paymentId === named)) return found;
    try {
      return [...found, await deps.processor.retrievePayment({ paymentId: named, mode })];
    } catch (err) {
      if (err instanceof PaymentProcessorError && err.code === 'payment_not_found') return found;
      throw err;
    }
  }

  /** Charges the processor made that no Payment row of ours records as succeeded: each becomes the policy or a refund. */
  async function recordUnrecorded(quoteId: string, mode: 'test' | 'live', charged: RetrievedPayment[]) {
    const live = charged.filter((p) => p.amountRefundedCents < p.amountCents && p.metadata['quoteId'] === quoteId);
    if (live.length === 0) return;
    const known = await deps.prisma.payment.findMany({
      where: { processorPaymentId: { in: live.map((p) => p.paymentId) }, status: 'succeeded' },
      select: { processorPaymentId: true },
    });
    const recorded = new Set(known.map((row) => row.processorPaymentId));
    for (const payment of live) {
      if (recorded.has(payment.paymentId)) continue;
      const outcome = await deps.fulfillment.recordSucceededPayment(succeededOf(payment, quoteId, mode));
      const result: ReconcileResult = outcome.kind === 'refund_pending' ? 'refunded' : 'recorded';
      deps.onReconciled?.(result, mode);
      deps.logger.warn(
        { quoteId, paymentId: payment.paymentId, outcome: outcome.kind },
        'found a charge no record of ours held; recorded it from the processor',
      );
    }
  }

  return { resolve };
}

export type AttemptResolver = ReturnType<typeof createAttemptResolver>;

/** A charge as the processor lists it, in the shape our own apps record a confirmed payment. */
function succeededOf(payment: RetrievedPayment, quoteId: string, mode: 'test' | 'live'): SucceededPayment {
  const channel = CHANNELS.find((c) => c === payment.metadata['channel']) ?? 'mpp';
  const challengeId = payment.metadata['challenge_id'];
  return {
    paymentId: payment.paymentId,
    amountCents: payment.amountCents,
    currency: payment.currency.toUpperCase(),
    mode,
    quoteId,
    planId: payment.metadata['planId'] ?? '',
    channel,
    // Only an MPP payment names one of our challenges (payment_challenges); ACP puts its session there.
    ...(channel === 'mpp' && challengeId ? { challengeId } : {}),
  };
}
