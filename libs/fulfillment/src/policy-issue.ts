import { randomUUID } from 'node:crypto';
import { isoDay, PolicyIssuedPayloadSchema, type PolicyIssuedPayload } from '@expedition/contracts';
import { findDestination } from '@expedition/domain-pricing';
import type { Purchase } from '@expedition/db';
import { activeTraceparent } from '@expedition/observability';
import { acpOrderCreated } from './acp-order-events';
import { computeCommissionCents } from './commission';
import { issuePolicyRows, type Issue } from './issue-sql';
import {
  NO_WEBHOOK_URL_ERROR,
  type FulfillmentDeps,
  type FulfillmentOutcome,
  type PaymentContext,
  type RecordedEvent,
  type RefundCause,
  type SucceededPayment,
  type Tx,
} from './fulfillment-types';
import { randomPolicyNumber, randomWebhookEventId } from './identifiers';
import { storedDocumentUrl } from './policy-links';

export type Verdict =
  | { kind: 'issue'; price: number }
  | { kind: 'already_recorded' }
  | { kind: 'refund'; cause: Exclude<RefundCause, 'unfulfillable'>; detail: string };

/** What a succeeded payment becomes: a policy, nothing new (recorded before), or a refund, and why. */
export function judge(facts: SucceededPayment, ctx: PaymentContext): Verdict {
  const { quote } = ctx;
  if (ctx.purchasedBy === facts.paymentId) return { kind: 'already_recorded' };
  if (ctx.purchasedBy)
    return { kind: 'refund', cause: 'duplicate_payment', detail: `quote already paid by ${ctx.purchasedBy}` };
  // Real money in the other mode than the quote's (a live charge for a test quote) never issues a policy.
  if (facts.mode !== quote.mode)
    return { kind: 'refund', cause: 'mode_mismatch', detail: `paid in ${facts.mode} mode for a ${quote.mode} quote` };
  const price = ctx.price;
  if (price === null)
    return { kind: 'refund', cause: 'plan_not_quoted', detail: `plan ${ctx.planId} is not among the quote's plans` };
  const currency = facts.currency.toUpperCase();
  if (facts.amountCents !== price || currency !== quote.currency.toUpperCase()) {
    return {
      kind: 'refund',
      cause: 'amount_mismatch',
      detail: `paid ${facts.amountCents} ${currency}, price ${price} ${quote.currency}`,
    };
  }
  return { kind: 'issue', price };
}

/** Writes one sale: alone inside the locked transaction, or with the sales that arrive together (batcher.ts). */
export type SaleWriter = (issue: Issue) => Promise<Purchase>;

/** The sale written alone, by `db` (the locked way's transaction). */
export function writeSaleWith(db: Tx): SaleWriter {
  return async (issue) => (await issuePolicyRows(db, [issue]))[0]!;
}

/**
 * The sale itself: purchase, policy, commission, the `policy.issued` outbox row (and the ACP order event) written in
 * one statement (fulfillment-sql.ts), inside the locked transaction or with the sales that arrive together.
 */
export function createPolicyIssuer(
  deps: Pick<FulfillmentDeps, 'clock' | 'processorName' | 'quoteApiUrl' | 'newPolicyNumber' | 'newWebhookEventId'>,
) {
  const newPolicyNumber = deps.newPolicyNumber ?? randomPolicyNumber;
  const newWebhookEventId = deps.newWebhookEventId ?? randomWebhookEventId;

  return async function issuePolicy(
    write: SaleWriter,
    facts: SucceededPayment,
    ctx: PaymentContext,
    premiumCents: number,
    event: RecordedEvent | null,
  ): Promise<FulfillmentOutcome> {
    const { quote, operator } = ctx;
    const now = deps.clock.now();
    const currency = facts.currency.toUpperCase();
    // No token is written: the policy's access token is derived from its number when handed out (policy-tokens.ts).
    const policy = { id: randomUUID(), policyNumber: newPolicyNumber(now) };
    const commissionCents = operator ? computeCommissionCents(premiumCents, operator.commissionRateBps) : 0;
    const payload: PolicyIssuedPayload | null = operator
      ? PolicyIssuedPayloadSchema.parse({
          eventId: newWebhookEventId(),
          type: 'policy.issued',
          createdAt: now.toISOString(),
          mode: quote.mode,
          operatorId: operator.id,
          policyId: policy.id,
          policyNumber: policy.policyNumber,
          quoteId: quote.id,
          quoteNumber: quote.quoteNumber,
          planId: ctx.planId,
          planName: ctx.planName,
          destination: findDestination(quote.destinationSlug)?.name ?? quote.destinationSlug,
          premiumCents,
          commissionCents,
          commissionRateBps: operator.commissionRateBps,
          currency,
          travelers: quote.travelers,
          startDate: quote.startDate ? isoDay(quote.startDate) : null,
          endDate: quote.endDate ? isoDay(quote.endDate) : null,
          issuedAt: now.toISOString(),
          ...(deps.quoteApiUrl ? { documentUrl: storedDocumentUrl(deps.quoteApiUrl, policy.policyNumber) } : {}),
        })
      : null;
    // An operator without a webhook URL still gets policy and commission; the event is kept, visibly failed and
    // never attempted, so it can be replayed once a URL is configured (set status back to pending).
    const deliverable = Boolean(operator?.webhookUrl);
    const purchase = await write({
      now,
      processor: deps.processorName,
      quote,
      planId: ctx.planId,
      premiumCents,
      currency,
      payment: {
        current: ctx.payment,
        processorPaymentId: facts.paymentId,
        mode: facts.mode,
        channel: facts.channel,
        amountCents: facts.amountCents,
        checkoutSessionId: facts.checkoutSessionId ?? null,
        challengeId: facts.challengeId ?? null,
      },
      policy,
      event,
      acpOrder:
        (ctx.payment?.channel ?? facts.channel) === 'acp' && deps.quoteApiUrl
          ? acpOrderCreated({
              quoteApiUrl: deps.quoteApiUrl,
              policy,
              planId: ctx.planId,
              planName: ctx.planName,
              premiumCents,
            })
          : null,
      operator:
        operator && payload
          ? {
              id: operator.id,
              rateBps: operator.commissionRateBps,
              commissionCents,
              webhook: {
                eventId: payload.eventId,
                payload,
                deliverable,
                lastError: deliverable ? null : NO_WEBHOOK_URL_ERROR,
                // The delivery continues this trace (null when untraced).
                traceParent: activeTraceparent() ?? null,
              },
            }
          : null,
    });
    return {
      kind: 'policy_issued',
      purchase,
      policyId: policy.id,
      policyNumber: policy.policyNumber,
      webhookEventId: payload?.eventId ?? null,
    };
  };
}
