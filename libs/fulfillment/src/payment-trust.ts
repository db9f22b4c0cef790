import { PaymentProcessorError, type PaymentProcessorEvent, type RetrievedPayment } from '@expedition/payments';
import { findStoredPayment } from './fulfillment-sql';
import type { ConfirmedFailure, FulfillmentDeps, TrustedPayment, Tx, UntrustedReason } from './fulfillment-types';

/**
 * Whether a processor event is to be believed: the processor's own word on the outcome it reports, and which payment
 * of ours it is. A signed event alone is never enough (a leaked signing secret must not buy policies nor write a
 * forger's words on our payments); every refusal is logged as an error.
 */
export function createPaymentTrust(deps: Pick<FulfillmentDeps, 'logger' | 'verifier'>) {
  /**
   * The processor's own word on a reported outcome, read over its API (not from the event): it must know the payment,
   * in that mode, with the reported status, for exactly the amount and currency reported. An outage throws (the event
   * is answered 500 and the processor retries it later); anything else that does not match is refused and logged.
   */
  async function confirmedWithProcessor(
    verifier: NonNullable<FulfillmentDeps['verifier']>,
    event: PaymentProcessorEvent,
    status: 'succeeded' | 'failed',
  ): Promise<RetrievedPayment | null> {
    let found;
    try {
      found = await verifier.retrievePayment({ paymentId: event.paymentId, mode: event.mode });
    } catch (err) {
      if (!(err instanceof PaymentProcessorError) || err.code === 'processor_unavailable') throw err;
      untrusted(event, 'unverified_payment', `the processor does not know this payment (${err.code})`);
      return null;
    }
    const same =
      found.status === status &&
      found.amountCents === event.amountCents &&
      found.currency.toLowerCase() === event.currency.toLowerCase();
    if (!same) {
      untrusted(
        event,
        'unverified_payment',
        `the processor reports ${found.status}, ${found.amountCents} ${found.currency}`,
      );
      return null;
    }
    return found;
  }

  async function confirmedByProcessor(event: PaymentProcessorEvent): Promise<boolean> {
    return !deps.verifier || (await confirmedWithProcessor(deps.verifier, event, 'succeeded')) !== null;
  }

  /**
   * A reported failure is confirmed the same way. What is recorded is the processor's own failure (its
   * `last_payment_error`), never the event's text: a signed event alone (a leaked secret) must not write a forger's
   * words on a payment of ours. Without a verifier only the event's codes are kept, no free text.
   */
  async function confirmedFailure(event: PaymentProcessorEvent): Promise<ConfirmedFailure | null> {
    if (!deps.verifier) {
      return {
        failureCode: event.failureCode ?? null,
        declineCode: event.declineCode ?? null,
        failureMessage: null,
        metadata: event.metadata,
      };
    }
    const found = await confirmedWithProcessor(deps.verifier, event, 'failed');
    if (!found) return null;
    return {
      failureCode: found.failureCode ?? null,
      declineCode: found.declineCode ?? null,
      failureMessage: found.failureMessage ?? null,
      metadata: found.metadata,
    };
  }

  /**
   * Which payment of ours the event reports. Trust comes from our own records, never from the event's metadata alone:
   * a Payment row we stored when we started it, or (MPP and ACP, settled in one processor call) a challenge of that
   * quote we issued and claimed, or an ACP checkout session of ours for that quote, for exactly this plan and amount.
   */
  async function trustedPayment(
    tx: Tx,
    event: PaymentProcessorEvent,
  ): Promise<TrustedPayment | { reason: UntrustedReason }> {
    const stored = await findStoredPayment(tx, event.paymentId);
    if (stored) {
      const metaQuote = event.metadata['quoteId'];
      if (metaQuote && metaQuote !== stored.quoteId)
        return untrusted(event, 'payment_mismatch', 'the event names another quote');
      if (stored.mode !== event.mode)
        return untrusted(event, 'mode_mismatch', `payment started in ${stored.mode} mode`);
      return {
        quoteId: stored.quoteId,
        planId: stored.planId,
        channel: stored.channel,
        checkoutSessionId: stored.checkoutSessionId,
        challengeId: stored.challengeId,
      };
    }
    const challengeId = event.metadata['challenge_id'] ?? event.metadata['challengeId'];
    const quoteId = event.metadata['quoteId'];
    if (challengeId && quoteId) {
      const challenge = await tx.paymentChallenge.findFirst({
        where: { id: challengeId, quoteId, usedAt: { not: null } },
        select: { planId: true, amountCents: true, quote: { select: { mode: true } } },
      });
      if (challenge && challenge.amountCents === event.amountCents && challenge.planId === event.metadata['planId']) {
        if (challenge.quote.mode !== event.mode)
          return untrusted(event, 'mode_mismatch', `quote is ${challenge.quote.mode}`);
        return { quoteId, planId: challenge.planId, channel: 'mpp', checkoutSessionId: null, challengeId };
      }
    }
    // ACP, settled in one processor call like MPP: the checkout session we hold for this quote and plan, at the
    // quote's own price. Lets the processor's event finish a sale whose process died before it recorded the charge.
    const acpSessionId = event.metadata['acpSessionId'];
    const planId = event.metadata['planId'];
    if (acpSessionId && quoteId && planId && event.metadata['channel'] === 'acp') {
      const session = await tx.acpCheckoutSession.findFirst({
        where: { id: acpSessionId, quoteId, planId },
        select: { id: true },
      });
      const estimate = session
        ? await tx.quoteEstimate.findFirst({
            where: { quoteId, planId },
            select: { premiumCents: true, quote: { select: { mode: true } } },
          })
        : null;
      if (estimate && estimate.premiumCents === event.amountCents) {
        if (estimate.quote.mode !== event.mode)
          return untrusted(event, 'mode_mismatch', `quote is ${estimate.quote.mode}`);
        return { quoteId, planId, channel: 'acp', checkoutSessionId: null, challengeId: null };
      }
    }
    return untrusted(event, 'untrusted_payment', 'no payment of ours matches this event');
  }

  function untrusted(event: PaymentProcessorEvent, reason: UntrustedReason, detail: string) {
    deps.logger.error(
      {
        processorEventId: event.id,
        paymentId: event.paymentId,
        mode: event.mode,
        amountCents: event.amountCents,
        reason,
        detail,
      },
      'processor event refused: it does not match a payment we started',
    );
    return { reason };
  }

  return { confirmedByProcessor, confirmedFailure, trustedPayment };
}
