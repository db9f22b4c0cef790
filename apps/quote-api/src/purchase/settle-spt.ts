import type { Mode } from '@expedition/contracts/rules';
import type { PaymentChannel } from '@expedition/db';
import type { AttemptClaim, AttemptResult, FulfillmentOutcome, MoneyPath } from '@expedition/fulfillment';
import {
  PaymentProcessorError,
  type PaymentProcessor,
  type SettleSharedPaymentTokenResult,
} from '@expedition/payments';
import type { Logger } from '@expedition/platform';

/** What one Shared Payment Token charge came to, inside a held payment claim. */
type SptSettlement =
  | { kind: 'recorded'; paymentId: string; outcome: FulfillmentOutcome }
  /** Not charged: declined, needs 3-D Secure, or the token was refused. */
  | { kind: 'not_charged'; settled: SettleSharedPaymentTokenResult }
  /** The processor may have charged (an earlier request under the same key, or still processing): the attempt stays
   * started, and the next holder of the claim (a payer or the reconciler) asks the processor. */
  | { kind: 'in_doubt' }
  | { kind: 'unavailable' };

interface SptCharge {
  channel: Extract<PaymentChannel, 'mpp' | 'acp'>;
  quote: { id: string; mode: Mode; operatorId: string | null };
  estimate: { planId: string; premiumCents: number; currency: string };
  spt: string;
  /** The MPP challenge, or the ACP checkout session: what the processor payment is bound to. */
  challengeId: string;
  /** Recorded on the Payment row (MPP challenges only: it references payment_challenges). */
  recordChallengeId?: string;
  /** Added to the processor metadata and to the log lines (e.g. the ACP session id). */
  extraMetadata?: Record<string, string>;
}

/**
 * The money-moving step that MPP (`POST /api/v1/purchase`) and ACP (`complete`) share, run inside
 * `moneyPath.guard.run(quoteId, channel, …)`: settle the token for exactly the quoted price, keyed per quote and
 * claim attempt, and record a success at once through the same fulfillment as every channel. The `end` tells the
 * guard whether money moved.
 */
export async function settleSptInClaim(
  deps: {
    processor: Pick<PaymentProcessor, 'settleSharedPaymentToken'>;
    moneyPath: Pick<MoneyPath, 'fulfillment'>;
    logger: Logger;
  },
  claim: AttemptClaim,
  charge: SptCharge,
): Promise<AttemptResult<SptSettlement>> {
  const { quote, estimate, channel } = charge;
  const context = { quoteId: quote.id, ...charge.extraMetadata };
  let settled: SettleSharedPaymentTokenResult;
  try {
    settled = await deps.processor.settleSharedPaymentToken({
      amountCents: estimate.premiumCents,
      currency: estimate.currency.toLowerCase(),
      mode: quote.mode,
      spt: charge.spt,
      challengeId: charge.challengeId,
      idempotencyKey: claim.key,
      metadata: {
        quoteId: quote.id,
        planId: estimate.planId,
        channel,
        ...charge.extraMetadata,
        claimAttempt: String(claim.attempt),
        ...(quote.operatorId ? { operatorId: quote.operatorId } : {}),
      },
    });
  } catch (err) {
    if (!(err instanceof PaymentProcessorError)) throw err;
    // A processor that takes no payments in the quote's mode (the simulated one and a live quote): nothing moved, and
    // retrying cannot help. The buyer is told so (a 4xx), never "unavailable, retry".
    if (err.code === 'mode_not_configured') {
      deps.logger.error(
        { ...context, mode: quote.mode },
        `${channel}: the payment processor takes no ${quote.mode}-mode payments`,
      );
      const message = `This ${quote.mode}-mode quote cannot be paid here: the payment processor takes no ${quote.mode}-mode payments.`;
      return {
        end: 'none',
        value: {
          kind: 'not_charged',
          settled: {
            paymentId: null,
            status: 'failed',
            replayed: false,
            failureCode: err.code,
            failureMessage: message,
          },
        },
      };
    }
    deps.logger.warn({ ...context, code: err.code }, `${channel} settlement did not complete`);
    // An idempotency conflict means an earlier request under this attempt's key reached the processor: the attempt
    // stays started, and whoever takes the claim next asks the processor what it charged before anything else may
    // charge the quote (docs/decisions.md, "One charge per quote through any crash").
    return { end: 'unknown', value: { kind: err.code === 'idempotency_error' ? 'in_doubt' : 'unavailable' } };
  }
  if (settled.status === 'succeeded' && settled.paymentId) {
    const outcome = await deps.moneyPath.fulfillment.recordSucceededPayment({
      paymentId: settled.paymentId,
      amountCents: estimate.premiumCents,
      currency: estimate.currency,
      mode: quote.mode,
      quoteId: quote.id,
      planId: estimate.planId,
      channel,
      ...(charge.recordChallengeId ? { challengeId: charge.recordChallengeId } : {}),
    });
    return { end: 'charged', value: { kind: 'recorded', paymentId: settled.paymentId, outcome } };
  }
  if (settled.status === 'processing') return { end: 'unknown', value: { kind: 'in_doubt' } };
  deps.logger.info(
    { ...context, status: settled.status, code: settled.failureCode },
    `${channel} settlement not successful`,
  );
  return { end: 'none', value: { kind: 'not_charged', settled } };
}
