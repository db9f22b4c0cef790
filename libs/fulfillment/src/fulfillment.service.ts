import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import { isoDay, PolicyIssuedPayloadSchema, type Mode, type PolicyIssuedPayload } from '@expedition/contracts';
import {
  Prisma,
  isUniqueViolation,
  type Payment,
  type PaymentChannel,
  type PrismaClient,
  type Purchase,
} from '@expedition/db';
import { findDestination } from '@expedition/domain-pricing';
import { activeTraceparent } from '@expedition/observability';
import {
  PaymentProcessorError,
  type PaymentProcessor,
  type PaymentProcessorEvent,
  type ProcessorEvent,
  type RetrievedPayment,
} from '@expedition/payments';
import type { Clock } from '@expedition/platform';
import { computeCommissionCents } from './commission';
import {
  findStoredPayment,
  insertProcessorEvent,
  issuePolicyRows,
  lockQuote,
  readPaymentSnapshot,
  type Issue,
  type PaymentSnapshot,
} from './fulfillment-sql';
import { randomPolicyNumber, randomWebhookEventId } from './identifiers';
import { storedDocumentUrl } from './policy-links';
import { acpOrderCreated } from './acp-order-events';
import type { Refunds } from './refunds';

type Tx = Prisma.TransactionClient;

/** A payment the processor just confirmed to one of our apps (MPP settlement, a card confirmed server-side). */
export interface SucceededPayment {
  paymentId: string;
  amountCents: number;
  currency: string;
  /** The processor mode the money moved in. */
  mode: Mode;
  quoteId: string;
  planId: string;
  channel: PaymentChannel;
  checkoutSessionId?: string;
  challengeId?: string;
}

/** A payment of ours, as its Payment row (or the row-shaped facts of an event) holds it. */
export type PaymentFacts = Pick<
  Payment,
  'processorPaymentId' | 'amountCents' | 'currency' | 'mode' | 'quoteId' | 'planId' | 'channel'
> &
  Partial<Pick<Payment, 'checkoutSessionId' | 'challengeId'>>;

/** What `recordSucceededPayment` takes, from a payment of ours. */
export function succeededPaymentOf(row: PaymentFacts): SucceededPayment {
  return {
    paymentId: row.processorPaymentId,
    amountCents: row.amountCents,
    currency: row.currency,
    mode: row.mode,
    quoteId: row.quoteId,
    planId: row.planId,
    channel: row.channel,
    ...(row.checkoutSessionId ? { checkoutSessionId: row.checkoutSessionId } : {}),
    ...(row.challengeId ? { challengeId: row.challengeId } : {}),
  };
}

/** Why money that arrived will not become a policy; each is refunded automatically. */
export type RefundCause =
  'duplicate_payment' | 'amount_mismatch' | 'plan_not_quoted' | 'mode_mismatch' | 'unfulfillable';

export type UntrustedReason = 'untrusted_payment' | 'unverified_payment' | 'mode_mismatch' | 'payment_mismatch';

export type FulfillmentOutcome =
  | { kind: 'policy_issued'; purchase: Purchase; policyId: string; policyNumber: string; webhookEventId: string | null }
  | { kind: 'already_recorded'; purchase: Purchase }
  | { kind: 'refund_pending'; cause: RefundCause; paymentRowId: string; purchase: Purchase | null }
  | { kind: 'payment_failed' }
  | { kind: 'duplicate' }
  | { kind: 'ignored'; reason: 'not_a_payment_event' | 'unknown_quote' | 'unknown_plan' | UntrustedReason };

export interface FulfillmentDeps {
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  /** Stored on Payment.processor / ProcessorEvent.processor: 'simulated' | 'stripe'. */
  processorName: string;
  /** Executes the refunds this service decides on (right after commit; a sweep retries failures). */
  refunds: Refunds;
  /**
   * Asks the processor whether a reported success is real before anything is issued: a signed event alone is not
   * proof (a leaked signing secret must not buy policies). Without it, events are trusted on signature and records.
   */
  verifier?: Pick<PaymentProcessor, 'retrievePayment'>;
  newPolicyNumber?: (now: Date) => string;
  newWebhookEventId?: () => string;
  /**
   * quote-api's public URL: `policy.issued` then carries the certificate's `documentUrl`, stored without its token
   * (the dispatcher adds the derived token when it delivers: policy-tokens.ts).
   */
  quoteApiUrl?: string;
}

export const NO_WEBHOOK_URL_ERROR = 'no webhook URL configured';

// Unique violations come from a racing writer (the app that started the payment, the other event of a Checkout
// pair) or a policy-number collision; the whole transaction is simply re-run.
const TRANSACTION_ATTEMPTS = 5;

/**
 * Turns succeeded payments into purchase, policy, commission and the `policy.issued` outbox row in ONE transaction
 * (transactional outbox). Two entry points, one rule set:
 * - `recordProcessorEvent`: a signature-checked processor event (the dispatcher's intake). Trusted only when it
 *   reports a payment we started (a Payment row we stored, or an MPP challenge we issued and claimed), in the mode
 *   of the quote, for the amount we asked.
 * - `recordSucceededPayment`: our own app, right after the processor confirmed a payment to it.
 * Money that arrives and cannot become a policy (a second charge of a paid quote, a wrong amount, an unfulfillable
 * quote) is never only flagged: the payment is marked `refund_pending` and refunded through the payments port.
 */
export function createFulfillment(deps: FulfillmentDeps) {
  const newPolicyNumber = deps.newPolicyNumber ?? randomPolicyNumber;
  const newWebhookEventId = deps.newWebhookEventId ?? randomWebhookEventId;

  async function recordProcessorEvent(event: ProcessorEvent): Promise<FulfillmentOutcome> {
    if (event.type === 'payment.succeeded' && !(await confirmedByProcessor(event))) {
      return { kind: 'ignored', reason: 'unverified_payment' };
    }
    const failure = event.type === 'payment.failed' ? await confirmedFailure(event) : undefined;
    if (failure === null) return { kind: 'ignored', reason: 'unverified_payment' };
    const outcome =
      (event.type === 'payment.succeeded' ? await eventAtOnce(event) : null) ??
      (await inTransaction(
        (tx) => eventInTransaction(tx, event, failure),
        event.type === 'payment.succeeded' ? () => unfulfillableEvent(event) : undefined,
      ));
    logOutcome({ processorEventId: event.id, type: event.sourceType }, outcome);
    await afterCommit(outcome);
    return outcome;
  }

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

  async function recordSucceededPayment(payment: SucceededPayment): Promise<FulfillmentOutcome> {
    const outcome =
      (await paymentAtOnce(payment)) ??
      (await inTransaction(
        async (tx) => {
          const ctx = await loadContext(tx, payment.quoteId, payment.planId, payment.paymentId);
          if ('reason' in ctx) return { kind: 'ignored', reason: ctx.reason } as const;
          return succeeded(tx, payment, ctx);
        },
        () => recordUnfulfillable(payment),
      ));
    logOutcome({ paymentId: payment.paymentId, channel: payment.channel }, outcome);
    await afterCommit(outcome);
    return outcome;
  }

  /*
   * The common case, a payment that becomes a policy, takes two statements and no lock: one read of everything the
   * decision needs, then one statement that writes the whole sale (and a payment recorded already, the event alone). Every other outcome (a refund, a failure, an event
   * trusted through an MPP challenge or an ACP session, an unknown quote) goes the locked way below, and so does a sale
   * that meets a concurrent writer: one purchase per quote, one policy per quote, one row per processor payment and per
   * processor event are unique indexes, so the loser's statement fails as a whole and the locked way then decides
   * with what the winner committed (already recorded, a duplicate, or a second payment to refund).
   */

  /** A succeeded event for a payment we stored: the sale in two statements, or null to take the locked way. */
  async function eventAtOnce(event: PaymentProcessorEvent): Promise<FulfillmentOutcome | null> {
    const snapshot = await readPaymentSnapshot(deps.prisma, { storedPayment: true }, event.paymentId, event.id);
    const stored = snapshot?.payment;
    if (!snapshot || !stored) return null;
    if (snapshot.eventRecorded) return { kind: 'duplicate' };
    // The locked way logs and refuses these.
    const metaQuote = event.metadata['quoteId'];
    if ((metaQuote && metaQuote !== stored.quoteId) || stored.mode !== event.mode) return null;
    const facts = eventFacts(event, stored);
    const recorded = {
      processor: deps.processorName,
      processorEventId: event.id,
      type: event.sourceType,
      payload: storablePayload(event.raw),
    };
    return saleAtOnce(facts, snapshot, recorded);
  }

  /** Our own app's confirmed payment: the sale in two statements, or null to take the locked way. */
  async function paymentAtOnce(payment: SucceededPayment): Promise<FulfillmentOutcome | null> {
    const snapshot = await readPaymentSnapshot(
      deps.prisma,
      { quoteId: payment.quoteId, planId: payment.planId },
      payment.paymentId,
    );
    return snapshot ? saleAtOnce(payment, snapshot, null) : null;
  }

  async function saleAtOnce(
    facts: SucceededPayment,
    snapshot: PaymentSnapshot,
    event: RecordedEvent | null,
  ): Promise<FulfillmentOutcome | null> {
    if (snapshot.planName === null) return null;
    const ctx: PaymentContext = { ...snapshot, planName: snapshot.planName };
    const verdict = judge(facts, ctx);
    // The other common case: our app recorded the sale when the processor confirmed it, and now the processor's own
    // event arrives (or the reverse). Nothing to write but the event.
    if (verdict.kind === 'already_recorded' && snapshot.payment?.status === 'succeeded')
      return alreadyRecorded(snapshot, event);
    if (verdict.kind !== 'issue') return null;
    try {
      return await issuePolicy(deps.prisma, facts, ctx, verdict.price, event);
    } catch (err) {
      // A concurrent writer won (or a value the database refuses): the locked way decides, or refunds.
      if (isUniqueViolation(err) || isDataError(err)) return null;
      throw err;
    }
  }

  async function alreadyRecorded(snapshot: PaymentSnapshot, event: RecordedEvent | null): Promise<FulfillmentOutcome> {
    // ON CONFLICT DO NOTHING: a twin of this event recorded it first.
    if (event && !(await insertProcessorEvent(deps.prisma, { ...event, at: deps.clock.now() })))
      return { kind: 'duplicate' };
    return {
      kind: 'already_recorded',
      purchase: await deps.prisma.purchase.findUniqueOrThrow({ where: { quoteId: snapshot.quote.id } }),
    };
  }

  async function inTransaction(
    work: (tx: Tx) => Promise<FulfillmentOutcome>,
    onUnfulfillable?: (err: unknown) => Promise<FulfillmentOutcome>,
  ): Promise<FulfillmentOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await deps.prisma.$transaction(work, { timeout: 20_000 });
      } catch (err) {
        if (attempt < TRANSACTION_ATTEMPTS && isUniqueViolation(err)) continue;
        // The data cannot be written (a value PostgreSQL or Prisma refuses). Money arrived all the same: record the
        // payment for refund in a transaction of its own rather than lose it behind a 500.
        if (onUnfulfillable && isDataError(err)) {
          deps.logger.error({ err }, 'succeeded payment could not be fulfilled; refunding it');
          return onUnfulfillable(err);
        }
        throw err;
      }
    }
  }

  async function eventInTransaction(
    tx: Tx,
    event: ProcessorEvent,
    failure?: ConfirmedFailure,
  ): Promise<FulfillmentOutcome> {
    // ON CONFLICT DO NOTHING: a concurrent twin waits for our commit, then inserts nothing and reports a duplicate.
    const recorded = await insertProcessorEvent(tx, {
      processor: deps.processorName,
      processorEventId: event.id,
      type: event.sourceType,
      payload: storablePayload(event.raw),
      at: deps.clock.now(),
    });
    if (!recorded) return { kind: 'duplicate' };
    if (event.type === 'other') return { kind: 'ignored', reason: 'not_a_payment_event' };

    const trusted = await trustedPayment(tx, event);
    if ('reason' in trusted) return { kind: 'ignored', reason: trusted.reason };
    const ctx = await loadContext(tx, trusted.quoteId, trusted.planId, event.paymentId);
    if ('reason' in ctx) return { kind: 'ignored', reason: ctx.reason };

    const facts = eventFacts(event, trusted);
    if (event.type === 'payment.failed') {
      // recordProcessorEvent confirms every failure with the processor before it gets here.
      if (!failure) throw new Error('a payment failure must be confirmed with the processor first');
      return failed(tx, facts, ctx, failure);
    }
    return succeeded(tx, facts, ctx);
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

  async function failed(
    tx: Tx,
    facts: SucceededPayment,
    ctx: PaymentContext,
    failure: ConfirmedFailure,
  ): Promise<FulfillmentOutcome> {
    const failureMessage = [failure.declineCode && `decline_code=${failure.declineCode}`, failure.failureMessage]
      .filter(Boolean)
      .join(': ');
    await upsertPayment(tx, facts, ctx, {
      status: 'failed',
      failureCode: failure.failureCode ?? 'payment_failed',
      failureMessage: failureMessage || null,
    });
    // The failed attempt moved no money: its claim key may advance. In this transaction (PGlite has one connection:
    // a write through the root client here would wait on this very transaction).
    const attempt = Number(failure.metadata['claimAttempt']);
    if (Number.isSafeInteger(attempt) && attempt > 0) {
      await tx.paymentClaim.updateMany({
        where: { quoteId: facts.quoteId, attempt, leaseUntil: { lte: deps.clock.now() } },
        data: { attempt: attempt + 1, processorPaymentId: null, updatedAt: deps.clock.now() },
      });
    }
    return { kind: 'payment_failed' };
  }

  async function succeeded(tx: Tx, facts: SucceededPayment, ctx: PaymentContext): Promise<FulfillmentOutcome> {
    const verdict = judge(facts, ctx);
    if (verdict.kind === 'issue') return issuePolicy(tx, facts, ctx, verdict.price, null);
    // The rare outcomes, through the ORM: the payment recorded as succeeded, then kept or refunded.
    const payment = await upsertPayment(tx, facts, ctx, {
      status: 'succeeded',
      failureCode: null,
      failureMessage: null,
    });
    const purchaseOfQuote = () => tx.purchase.findUniqueOrThrow({ where: { quoteId: ctx.quote.id } });
    if (verdict.kind === 'already_recorded') return { kind: 'already_recorded', purchase: await purchaseOfQuote() };
    const existing = verdict.cause === 'duplicate_payment' ? await purchaseOfQuote() : null;
    return markRefund(tx, payment, verdict.cause, verdict.detail, existing);
  }

  /** What a succeeded payment becomes: a policy, nothing new (recorded before), or a refund, and why. */
  function judge(facts: SucceededPayment, ctx: PaymentContext): Verdict {
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

  /** Writes the sale in one statement (fulfillment-sql.ts), inside the locked transaction or on its own. */
  async function issuePolicy(
    db: Tx,
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
    const purchase = await issuePolicyRows(db, {
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
  }

  async function markRefund(
    tx: Tx,
    payment: Payment,
    cause: RefundCause,
    detail: string,
    purchase: Purchase | null,
  ): Promise<FulfillmentOutcome> {
    await tx.payment.update({
      where: { id: payment.id },
      data: { refundStatus: payment.refundStatus ?? 'pending', refundReason: `${cause}: ${detail}` },
    });
    const fields = { paymentId: payment.processorPaymentId, quoteId: payment.quoteId, cause, detail };
    // Money of the other mode than the quote's is never a mistake of the buyer's: alerted like an untrusted event.
    if (cause === 'mode_mismatch')
      deps.logger.error(fields, 'payment in the other mode than its quote refused; refunding it');
    else deps.logger.warn(fields, 'succeeded payment will not be fulfilled; refunding it');
    return { kind: 'refund_pending', cause, paymentRowId: payment.id, purchase };
  }

  async function unfulfillableEvent(event: PaymentProcessorEvent): Promise<FulfillmentOutcome> {
    const trusted = await deps.prisma.$transaction((tx) => trustedPayment(tx, event));
    if ('reason' in trusted) return { kind: 'ignored', reason: trusted.reason };
    return recordUnfulfillable(eventFacts(event, trusted), event);
  }

  /** Outside the failed transaction: the payment row alone, marked for refund, so the money is never lost. */
  async function recordUnfulfillable(payment: SucceededPayment, event?: ProcessorEvent): Promise<FulfillmentOutcome> {
    return deps.prisma.$transaction(async (tx) => {
      if (event) {
        await tx.processorEvent.createMany({
          data: [
            {
              processor: deps.processorName,
              processorEventId: event.id,
              type: event.sourceType,
              payload: {},
              receivedAt: deps.clock.now(),
            },
          ],
          skipDuplicates: true,
        });
      }
      const row = await tx.payment.upsert({
        where: { processorPaymentId: payment.paymentId },
        create: {
          quoteId: payment.quoteId,
          planId: payment.planId,
          mode: payment.mode,
          channel: payment.channel,
          processor: deps.processorName,
          processorPaymentId: payment.paymentId,
          amountCents: payment.amountCents,
          currency: payment.currency.toUpperCase(),
          status: 'succeeded',
        },
        update: { status: 'succeeded' },
      });
      return markRefund(tx, row, 'unfulfillable', 'the quote could not be turned into a policy', null);
    });
  }

  async function afterCommit(outcome: FulfillmentOutcome): Promise<void> {
    if (outcome.kind !== 'refund_pending') return;
    // Best effort now; the refund sweep retries whatever this could not finish.
    await deps.refunds.refund(outcome.paymentRowId).catch((err: unknown) => {
      deps.logger.error({ err, paymentRowId: outcome.paymentRowId }, 'refund attempt failed; the sweep will retry');
    });
  }

  /** The locked way's read: the quote locked, then everything the decision needs. */
  async function loadContext(
    tx: Tx,
    quoteId: string,
    planId: string,
    paymentId: string,
  ): Promise<PaymentContext | { reason: 'unknown_quote' | 'unknown_plan' }> {
    const snapshot = (await lockQuote(tx, quoteId))
      ? await readPaymentSnapshot(tx, { quoteId, planId }, paymentId)
      : null;
    if (!snapshot) return { reason: 'unknown_quote' };
    if (snapshot.planName === null) return { reason: 'unknown_plan' };
    return { ...snapshot, planName: snapshot.planName };
  }

  async function upsertPayment(
    tx: Tx,
    facts: SucceededPayment,
    ctx: PaymentContext,
    outcome: { status: 'succeeded' | 'failed'; failureCode: string | null; failureMessage: string | null },
  ): Promise<Payment> {
    const amounts = { amountCents: facts.amountCents, currency: facts.currency.toUpperCase() };
    const current = await tx.payment.findUnique({ where: { processorPaymentId: facts.paymentId } });
    if (!current) {
      return tx.payment.create({
        data: {
          quoteId: ctx.quote.id,
          planId: ctx.planId,
          operatorId: ctx.quote.operatorId,
          mode: facts.mode,
          channel: facts.channel,
          processor: deps.processorName,
          processorPaymentId: facts.paymentId,
          checkoutSessionId: facts.checkoutSessionId ?? null,
          challengeId: facts.challengeId ?? null,
          ...amounts,
          ...outcome,
        },
      });
    }
    // Events can arrive out of order: a late failure never undoes a success, and a success once recorded is never
    // rewritten (its amount is what the processor took).
    if (current.status === 'succeeded') return current;
    return tx.payment.update({
      where: { id: current.id },
      data: {
        ...amounts,
        ...outcome,
        checkoutSessionId: current.checkoutSessionId ?? facts.checkoutSessionId ?? null,
        challengeId: current.challengeId ?? facts.challengeId ?? null,
      },
    });
  }

  function logOutcome(fields: Record<string, unknown>, outcome: FulfillmentOutcome): void {
    if (outcome.kind === 'ignored' && (outcome.reason === 'unknown_quote' || outcome.reason === 'unknown_plan')) {
      deps.logger.error(
        { ...fields, outcome: outcome.kind, reason: outcome.reason },
        'payment for an unknown quote or plan',
      );
      return;
    }
    deps.logger.info({ ...fields, outcome: outcome.kind }, 'payment recorded');
  }

  return { recordProcessorEvent, recordSucceededPayment };
}

export type Fulfillment = ReturnType<typeof createFulfillment>;

/** A failure as the processor confirmed it (its own codes and message, and the payment's metadata as it holds it). */
interface ConfirmedFailure {
  failureCode: string | null;
  declineCode: string | null;
  failureMessage: string | null;
  metadata: Record<string, string>;
}

interface TrustedPayment {
  quoteId: string;
  planId: string;
  channel: PaymentChannel;
  checkoutSessionId: string | null;
  challengeId: string | null;
}

/** The payment an event reports: the money as the event says, whose it is as our records say. */
function eventFacts(event: PaymentProcessorEvent, trusted: TrustedPayment): SucceededPayment {
  return succeededPaymentOf({
    ...trusted,
    processorPaymentId: event.paymentId,
    amountCents: event.amountCents,
    currency: event.currency,
    mode: event.mode,
  });
}

/** What a decision on a payment reads (fulfillment-sql.ts), for a plan that exists. */
interface PaymentContext extends PaymentSnapshot {
  planName: string;
}

type RecordedEvent = NonNullable<Issue['event']>;

type Verdict =
  | { kind: 'issue'; price: number }
  | { kind: 'already_recorded' }
  | { kind: 'refund'; cause: Exclude<RefundCause, 'unfulfillable'>; detail: string };

/** Errors in the data itself (a value out of range, a string PostgreSQL refuses), as opposed to an outage. */
function isDataError(err: unknown): boolean {
  if (err instanceof Prisma.PrismaClientValidationError) return true;
  if (err instanceof Prisma.PrismaClientKnownRequestError)
    return err.code !== 'P2002' && err.code !== 'P2034' && !err.code.startsWith('P1');
  const message = err instanceof Error ? err.message : '';
  return /out of range|invalid input|unsupported Unicode escape|22P05|22008|22003/i.test(message);
}

/** The raw event, minus the PaymentIntent's client secret (a browser credential we have no reason to keep). */
function storablePayload(raw: unknown): Prisma.InputJsonValue {
  // A `__proto__` key (legal JSON, own property after JSON.parse) makes Prisma's JSON serializer throw (a 500): dropped.
  const copy = JSON.parse(JSON.stringify(raw ?? {}), (key, value: unknown) =>
    key === '__proto__' ? undefined : value,
  ) as {
    data?: { object?: unknown };
  };
  // A signed event whose `data.object` is not an object (a string, `true`) is stored as sent: `in` would throw (a 500).
  const object = copy.data?.object;
  if (object && typeof object === 'object' && 'client_secret' in object)
    delete (object as Record<string, unknown>)['client_secret'];
  return copy as Prisma.InputJsonValue;
}
