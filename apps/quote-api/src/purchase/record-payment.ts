import type { PaymentIntake } from '@expedition/fulfillment';
import type { RecordPayment } from './purchase.service';

/**
 * Records a payment the processor confirmed synchronously (MPP settlement, checkout-link card payment) through the
 * same one-transaction fulfillment as the dispatcher's webhook intake. The processor's own event arrives later with
 * another event id and finds the purchase already recorded for this payment id: one purchase, one policy, one
 * `policy.issued`, whichever path comes first.
 */
export function createRecordPayment(intake: PaymentIntake): RecordPayment {
  return async (p) => {
    const outcome = await intake.handle({
      id: `sync_${p.paymentId}`,
      sourceType: 'payment_intent.succeeded',
      type: 'payment.succeeded',
      mode: p.mode,
      paymentId: p.paymentId,
      amountCents: p.amountCents,
      currency: p.currency.toLowerCase(),
      metadata: {
        quoteId: p.quoteId,
        planId: p.planId,
        channel: p.channel,
        ...(p.operatorId ? { operatorId: p.operatorId } : {}),
        ...(p.checkoutSessionId ? { checkoutSessionId: p.checkoutSessionId } : {}),
        ...(p.challengeId ? { challengeId: p.challengeId } : {}),
      },
      raw: { synchronous: true },
    });
    if (outcome.kind === 'ignored') throw new Error(`payment ${p.paymentId} could not be recorded: ${outcome.reason}`);
  };
}
