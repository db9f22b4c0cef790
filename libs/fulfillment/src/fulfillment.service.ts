import { isUniqueViolation } from '@expedition/db';
import type { PaymentProcessorEvent, ProcessorEvent } from '@expedition/payments';
import { createBatcher } from './batcher';
import {
  insertProcessorEvent,
  lockQuote,
  readPaymentSnapshot,
  readPaymentSnapshots,
  type PaymentSnapshot,
} from './fulfillment-sql';
import {
  eventFacts,
  type ConfirmedFailure,
  type FulfillmentDeps,
  type FulfillmentOutcome,
  type PaymentContext,
  type RecordedEvent,
  type SucceededPayment,
  type Tx,
} from './fulfillment-types';
import { issuePolicyRows } from './issue-sql';
import { createPaymentRecords, isDataError, storablePayload } from './payment-records';
import { createPaymentTrust } from './payment-trust';
import { createPolicyIssuer, judge, writeSaleWith } from './policy-issue';

// Unique violations come from a racing writer (the app that started the payment, the other event of a Checkout
// pair) or a policy-number collision; the whole transaction is simply re-run.
const TRANSACTION_ATTEMPTS = 5;

/**
 * The sales that arrive together share the common path's two statements (batcher.ts; docs/decisions.md, "Sales that
 * arrive together"): at most 16 sales per statement and one statement of each kind at a time, so the sales that come
 * while one runs wait for it and go together in the next (with two at a time the batches were smaller and the intake
 * slower: tools/bench/README.md).
 */
export const SALE_BATCH = { maxSize: 16, maxInFlight: 1 } as const;

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
  const { confirmedByProcessor, confirmedFailure, trustedPayment } = createPaymentTrust(deps);
  const issuePolicy = createPolicyIssuer(deps);
  const { failed, markRefund, recordUnfulfillable, upsertPayment } = createPaymentRecords(deps);
  const batch = deps.saleBatch ?? SALE_BATCH;
  const readSnapshot = createBatcher(
    (requests: Parameters<typeof readPaymentSnapshots>[1]) => readPaymentSnapshots(deps.prisma, requests),
    batch,
  );
  const writeSale = createBatcher(
    (issues: Parameters<typeof issuePolicyRows>[1]) => issuePolicyRows(deps.prisma, issues),
    batch,
  );

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
   * decision needs, then one statement that writes the whole sale (and a payment recorded already, the event alone).
   * Every other outcome (a refund, a failure, an event trusted through an MPP challenge or an ACP session, an unknown
   * quote) goes the locked way below, and so does a sale that meets a concurrent writer: one purchase per quote, one policy per quote, one row per processor payment and per
   * processor event are unique indexes, so the loser's statement fails as a whole and the locked way then decides
   * with what the winner committed (already recorded, a duplicate, or a second payment to refund).
   */

  /** A succeeded event for a payment we stored: the sale in two statements, or null to take the locked way. */
  async function eventAtOnce(event: PaymentProcessorEvent): Promise<FulfillmentOutcome | null> {
    const snapshot = await readSnapshot({
      key: { storedPayment: true },
      processorPaymentId: event.paymentId,
      processorEventId: event.id,
    });
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
    const snapshot = await readSnapshot({
      key: { quoteId: payment.quoteId, planId: payment.planId },
      processorPaymentId: payment.paymentId,
    });
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
      return await issuePolicy(writeSale, facts, ctx, verdict.price, event);
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

  async function succeeded(tx: Tx, facts: SucceededPayment, ctx: PaymentContext): Promise<FulfillmentOutcome> {
    const verdict = judge(facts, ctx);
    if (verdict.kind === 'issue') return issuePolicy(writeSaleWith(tx), facts, ctx, verdict.price, null);
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

  async function unfulfillableEvent(event: PaymentProcessorEvent): Promise<FulfillmentOutcome> {
    const trusted = await deps.prisma.$transaction((tx) => trustedPayment(tx, event));
    if ('reason' in trusted) return { kind: 'ignored', reason: trusted.reason };
    return recordUnfulfillable(eventFacts(event, trusted), event);
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
