import type { Mode } from '@expedition/contracts/rules';
import { randomUUID } from 'node:crypto';
import { prepared, Prisma, type PaymentChannel, type PaymentStatus, type Purchase, type Quote } from '@expedition/db';
import { acpOrderEventPart, type AcpOrderEventRow } from './acp-order-events';

/**
 * The statements of fulfillment's common path, in plain SQL: record the processor event, read everything a decision
 * needs in one statement, and issue a policy (payment, purchase, policy, quote, checkout link, commission, the
 * `policy.issued` outbox row and the policyholder's confirmation mail job) in one more. Through the ORM the same work took about fifteen round trips, and most of
 * the intake's CPU went to Prisma's client (tools/bench/README.md). The rare paths (refunds, failures, ACP and MPP
 * trust) stay in the ORM, in payment-records.ts and payment-trust.ts. Plain SQL runs the same on PostgreSQL and PGlite.
 * The common path's statements are `prepared()`: parsed and planned once per connection (docs/decisions.md,
 * "Prepared statements").
 *
 * Ids and `updated_at` are made here, as Prisma's client would (`@default(uuid())`, `@updatedAt`). Keep the column
 * lists in step with libs/db/prisma/schema.prisma; the intake and payment suites read every row back through Prisma.
 */

type Tx = Prisma.TransactionClient;

/** Records a processor event once; false when it was already recorded (a concurrent twin waits for our commit). */
export async function insertProcessorEvent(
  tx: Tx,
  event: { processor: string; processorEventId: string; type: string; payload: Prisma.InputJsonValue; at: Date },
): Promise<boolean> {
  const rows = await tx.$queryRaw<{ id: string }[]>(
    prepared(Prisma.sql`
    INSERT INTO processor_events (id, processor, processor_event_id, type, payload, received_at, processed_at)
    VALUES (${randomUUID()}, ${event.processor}, ${event.processorEventId}, ${event.type},
      ${JSON.stringify(event.payload)}::jsonb, ${event.at}::timestamp(3), ${event.at}::timestamp(3))
    ON CONFLICT (processor_event_id) DO NOTHING
    RETURNING id`),
  );
  return rows.length === 1;
}

/** A payment of ours, as much of it as deciding whose an event is needs. */
export interface StoredPayment {
  quoteId: string;
  planId: string;
  mode: Mode;
  channel: PaymentChannel;
  checkoutSessionId: string | null;
  challengeId: string | null;
}

export async function findStoredPayment(tx: Tx, processorPaymentId: string): Promise<StoredPayment | null> {
  const rows = await tx.$queryRaw<StoredPayment[]>`
    SELECT quote_id AS "quoteId", plan_id AS "planId", mode, channel, checkout_session_id AS "checkoutSessionId",
      challenge_id AS "challengeId"
    FROM payments WHERE processor_payment_id = ${processorPaymentId}`;
  return rows[0] ?? null;
}

/** The quote fields that issuing a policy and its `policy.issued` event read. */
export type QuoteFacts = Pick<
  Quote,
  | 'id'
  | 'quoteNumber'
  | 'mode'
  | 'currency'
  | 'operatorId'
  | 'travelers'
  | 'travelerAges'
  | 'startDate'
  | 'endDate'
  | 'destinationSlug'
>;

export interface OperatorFacts {
  id: string;
  commissionRateBps: number;
  webhookUrl: string | null;
}

/** Our row of the payment being recorded, when there is one. */
export interface CurrentPayment {
  id: string;
  status: PaymentStatus;
  mode: Mode;
  channel: PaymentChannel;
  quoteId: string;
  planId: string;
  checkoutSessionId: string | null;
  challengeId: string | null;
}

/** Everything the decision on a payment reads, as one statement saw it. */
export interface PaymentSnapshot {
  quote: QuoteFacts;
  planId: string;
  /** Null when the plan does not exist. */
  planName: string | null;
  /** What we asked for this plan on this quote: the bindable option's price (embed), else the estimate's. */
  price: number | null;
  operator: OperatorFacts | null;
  payment: CurrentPayment | null;
  /** The payment that already bought this quote, if any. */
  purchasedBy: string | null;
  /** Whether the processor event being handled is recorded already (false when there is none). */
  eventRecorded: boolean;
}

interface SnapshotRow {
  id: string;
  quoteNumber: string;
  mode: Mode;
  currency: string;
  operatorId: string | null;
  travelers: number;
  travelerAges: number[];
  startDate: Date | null;
  endDate: Date | null;
  destinationSlug: string;
  planId: string;
  planName: string | null;
  price: number | null;
  operatorRateBps: number | null;
  operatorWebhookUrl: string | null;
  payment: CurrentPayment | null;
  purchasedBy: string | null;
  eventRecorded: boolean;
}

/**
 * Which quote and plan a snapshot reads: given (our own app, after the processor confirmed a payment to it), or those
 * of the Payment row we stored when we started the payment (a processor event).
 */
export type SnapshotKey = { quoteId: string; planId: string } | { storedPayment: true };

/**
 * Reads, in one statement, what deciding on a payment needs: the quote, the plan's name and our price for it, the
 * operator, our row of the payment, the purchase of the quote if any, and whether the event is recorded already.
 * Null when the quote does not exist (or, keyed by the stored payment, when we stored none).
 */
export async function readPaymentSnapshot(
  db: Tx,
  key: SnapshotKey,
  processorPaymentId: string,
  processorEventId?: string,
): Promise<PaymentSnapshot | null> {
  const ofStoredPayment = Prisma.sql`(SELECT quote_id FROM payments WHERE processor_payment_id = ${processorPaymentId})`;
  const quoteId = 'quoteId' in key ? Prisma.sql`${key.quoteId}` : ofStoredPayment;
  const planId = 'planId' in key ? Prisma.sql`${key.planId}` : Prisma.sql`pay.plan_id`;
  const rows = await db.$queryRaw<SnapshotRow[]>(
    prepared(Prisma.sql`
    SELECT q.id, q.quote_number AS "quoteNumber", q.mode, q.currency, q.operator_id AS "operatorId", q.travelers,
      q.traveler_ages AS "travelerAges", q.start_date AS "startDate", q.end_date AS "endDate",
      q.destination_slug AS "destinationSlug",
      ${planId} AS "planId", pl.name AS "planName",
      COALESCE(qo.premium_cents, qe.premium_cents) AS price,
      o.commission_rate_bps AS "operatorRateBps", o.webhook_url AS "operatorWebhookUrl",
      CASE WHEN pay.id IS NULL THEN NULL ELSE json_build_object('id', pay.id, 'status', pay.status, 'mode', pay.mode,
        'channel', pay.channel, 'quoteId', pay.quote_id, 'planId', pay.plan_id,
        'checkoutSessionId', pay.checkout_session_id, 'challengeId', pay.challenge_id) END AS payment,
      pu.processor_payment_id AS "purchasedBy",
      EXISTS (SELECT 1 FROM processor_events WHERE processor_event_id = ${processorEventId ?? null}) AS "eventRecorded"
    FROM quotes q
    LEFT JOIN payments pay ON pay.processor_payment_id = ${processorPaymentId}
    LEFT JOIN plans pl ON pl.id = ${planId}
    LEFT JOIN operators o ON o.id = q.operator_id
    LEFT JOIN quote_options qo ON qo.quote_id = q.id AND qo.plan_id = ${planId}
    LEFT JOIN quote_estimates qe ON qe.quote_id = q.id AND qe.plan_id = ${planId}
    LEFT JOIN purchases pu ON pu.quote_id = q.id
    WHERE q.id = ${quoteId}`),
  );
  const r = rows[0];
  if (!r) return null;
  return {
    quote: {
      id: r.id,
      quoteNumber: r.quoteNumber,
      mode: r.mode,
      currency: r.currency,
      operatorId: r.operatorId,
      travelers: r.travelers,
      travelerAges: r.travelerAges,
      startDate: r.startDate,
      endDate: r.endDate,
      destinationSlug: r.destinationSlug,
    },
    planId: r.planId,
    planName: r.planName,
    price: r.price,
    operator:
      r.operatorId && r.operatorRateBps !== null
        ? { id: r.operatorId, commissionRateBps: r.operatorRateBps, webhookUrl: r.operatorWebhookUrl }
        : null,
    payment: r.payment,
    purchasedBy: r.purchasedBy,
    eventRecorded: r.eventRecorded,
  };
}

/**
 * Locks the quote: everything that happens to one quote in the locked path is serialized on it (two events for one
 * payment, two payments for one quote). False when the quote does not exist. Read after it, in a statement of its
 * own: under READ COMMITTED a statement sees what was committed when it started, so that read sees the purchase a
 * transaction we waited for wrote.
 */
export async function lockQuote(tx: Tx, quoteId: string): Promise<boolean> {
  const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM quotes WHERE id = ${quoteId} FOR UPDATE`;
  return locked.length === 1;
}

/** One sale, as issuing writes it. */
export interface Issue {
  now: Date;
  processor: string;
  quote: QuoteFacts;
  planId: string;
  premiumCents: number;
  currency: string;
  payment: {
    /** Our row, when the payment was started by us and stored (else it is created here). */
    current: CurrentPayment | null;
    processorPaymentId: string;
    mode: Mode;
    channel: PaymentChannel;
    amountCents: number;
    checkoutSessionId: string | null;
    challengeId: string | null;
  };
  policy: { id: string; policyNumber: string };
  /** The processor event that reported the payment, recorded in the same statement (a twin makes it fail). */
  event: null | { processor: string; processorEventId: string; type: string; payload: Prisma.InputJsonValue };
  /** Commission and outbox row, when the quote came through an operator. */
  operator: null | {
    id: string;
    rateBps: number;
    commissionCents: number;
    webhook: {
      eventId: string;
      payload: unknown;
      deliverable: boolean;
      lastError: string | null;
      traceParent: string | null;
    };
  };
  /** An ACP sale: its `order_create` event, queued when the session's agent key has a webhook URL (acp-order-events.ts). */
  acpOrder?: AcpOrderEventRow | null;
}

/**
 * Issues a policy in ONE statement (data-modifying CTEs: every part runs, atomically, in one round trip): the payment
 * marked succeeded (created when we never stored it; a success once recorded is never rewritten), the purchase, the
 * policy, its confirmation mail job, the quote marked purchased, its checkout link paid, and, through an operator,
 * the commission and the `policy.issued` outbox row, and for an ACP sale the `order_create` event. A taken policy number or a racing purchase surfaces as the usual unique violation.
 */
export async function issuePolicyRows(db: Tx, s: Issue): Promise<Purchase> {
  const { now, quote, payment } = s;
  const paymentRowId = payment.current?.id ?? randomUUID();
  const checkoutSessionId = payment.current
    ? (payment.current.checkoutSessionId ?? (payment.current.status === 'succeeded' ? null : payment.checkoutSessionId))
    : payment.checkoutSessionId;
  const purchase: Purchase = {
    id: randomUUID(),
    quoteId: quote.id,
    planId: s.planId,
    paymentId: paymentRowId,
    processorPaymentId: payment.processorPaymentId,
    amountCents: s.premiumCents,
    currency: s.currency,
    channel: payment.current?.channel ?? payment.channel,
    mode: quote.mode,
    operatorId: quote.operatorId,
    createdAt: now,
  };
  const parts = [
    paymentPart(s, paymentRowId),
    ...(s.event ? [eventPart(s.event, now)] : []),
    Prisma.sql`purchase AS (
      INSERT INTO purchases (id, quote_id, plan_id, payment_id, processor_payment_id, amount_cents, currency, channel,
        mode, operator_id, created_at)
      VALUES (${purchase.id}, ${purchase.quoteId}, ${purchase.planId}, ${purchase.paymentId}, ${purchase.processorPaymentId},
        ${purchase.amountCents}, ${purchase.currency}, ${purchase.channel}::payment_channel, ${purchase.mode}::key_mode,
        ${purchase.operatorId}, ${now}::timestamp(3))
    )`,
    Prisma.sql`policy AS (
      INSERT INTO policies (id, policy_number, purchase_id, quote_id, plan_id, operator_id, mode, travelers,
        traveler_ages, start_date, end_date, premium_cents, currency, issued_at)
      VALUES (${s.policy.id}, ${s.policy.policyNumber}, ${purchase.id}, ${quote.id}, ${s.planId},
        ${quote.operatorId}, ${quote.mode}::key_mode, ${quote.travelers}, ${quote.travelerAges}::int[],
        ${quote.startDate}::date, ${quote.endDate}::date, ${s.premiumCents}, ${s.currency}, ${now}::timestamp(3))
    )`,
    Prisma.sql`purchased AS (
      UPDATE quotes SET status = 'purchased', updated_at = ${now}::timestamp(3) WHERE id = ${quote.id}
    )`,
  ];
  parts.push(confirmationMailPart(s, payment.current?.checkoutSessionId ?? payment.checkoutSessionId));
  if (checkoutSessionId) {
    parts.push(Prisma.sql`link_paid AS (
      UPDATE checkout_sessions SET status = 'paid', paid_at = ${now}::timestamp(3), updated_at = ${now}::timestamp(3)
      WHERE id = ${checkoutSessionId} AND status <> 'paid'
    )`);
  }
  if (s.acpOrder) parts.push(acpOrderEventPart(s.acpOrder, quote.id, now));
  const op = s.operator;
  if (op) {
    parts.push(
      Prisma.sql`commission AS (
        INSERT INTO commissions (id, policy_id, operator_id, rate_bps, premium_cents, commission_cents, currency, created_at)
        VALUES (${randomUUID()}, ${s.policy.id}, ${op.id}, ${op.rateBps}, ${s.premiumCents}, ${op.commissionCents},
          ${s.currency}, ${now}::timestamp(3))
      )`,
      Prisma.sql`outbox AS (
        INSERT INTO webhook_events (id, event_id, type, operator_id, payload, status, last_error, next_attempt_at,
          created_at, trace_parent)
        VALUES (${randomUUID()}, ${op.webhook.eventId}, 'policy.issued', ${op.id}, ${JSON.stringify(op.webhook.payload)}::jsonb,
          ${op.webhook.deliverable ? 'pending' : 'failed'}::webhook_event_status, ${op.webhook.lastError},
          ${now}::timestamp(3), ${now}::timestamp(3), ${op.webhook.traceParent})
      )`,
    );
  }
  await db.$executeRaw(prepared(Prisma.sql`WITH ${Prisma.join(parts, ', ')} SELECT 1`));
  return purchase;
}

/**
 * The policyholder's confirmation e-mail, queued by the statement that issues the policy (transactional outbox: no
 * policy without its mail job, no mail job without its policy). The address is the one the buyer gave on the checkout
 * link, else the quote's (widget, hosted page, MPP, ACP `buyer.email`); without one the row says `no_address`, so the
 * operator's portal can tell "not sent: no address" from "pending". The webhook-dispatcher's mail worker sends it.
 */
function confirmationMailPart(s: Issue, checkoutSessionId: string | null): Prisma.Sql {
  return Prisma.sql`mail AS (
    INSERT INTO policy_mails (id, policy_id, kind, recipient, status, next_attempt_at, created_at)
    SELECT ${randomUUID()}, ${s.policy.id}, 'confirmation', a.address,
      (CASE WHEN a.address IS NULL THEN 'no_address' ELSE 'pending' END)::"PolicyMailStatus", ${s.now}::timestamp(3),
      ${s.now}::timestamp(3)
    FROM (SELECT COALESCE(
      (SELECT NULLIF(btrim(email), '') FROM checkout_sessions WHERE id = ${checkoutSessionId}),
      (SELECT NULLIF(btrim(email), '') FROM quotes WHERE id = ${s.quote.id})) AS address) AS a
  )`;
}

function eventPart(event: NonNullable<Issue['event']>, now: Date): Prisma.Sql {
  return Prisma.sql`event AS (
    INSERT INTO processor_events (id, processor, processor_event_id, type, payload, received_at, processed_at)
    VALUES (${randomUUID()}, ${event.processor}, ${event.processorEventId}, ${event.type},
      ${JSON.stringify(event.payload)}::jsonb, ${now}::timestamp(3), ${now}::timestamp(3))
  )`;
}

/** The payment row's part of the sale: created, or marked succeeded, or (already succeeded) left as it is. */
function paymentPart(s: Issue, paymentRowId: string): Prisma.Sql {
  const { payment, now } = s;
  const currency = s.currency;
  if (!payment.current) {
    return Prisma.sql`payment AS (
      INSERT INTO payments (id, quote_id, plan_id, operator_id, mode, channel, processor, processor_payment_id,
        checkout_session_id, challenge_id, amount_cents, currency, status, updated_at)
      VALUES (${paymentRowId}, ${s.quote.id}, ${s.planId}, ${s.quote.operatorId}, ${payment.mode}::key_mode,
        ${payment.channel}::payment_channel, ${s.processor}, ${payment.processorPaymentId}, ${payment.checkoutSessionId},
        ${payment.challengeId}, ${payment.amountCents}, ${currency}, 'succeeded', ${now}::timestamp(3))
    )`;
  }
  if (payment.current.status === 'succeeded') return Prisma.sql`payment AS (SELECT 1)`;
  return Prisma.sql`payment AS (
    UPDATE payments SET amount_cents = ${payment.amountCents}, currency = ${currency}, status = 'succeeded',
      failure_code = NULL, failure_message = NULL,
      checkout_session_id = COALESCE(checkout_session_id, ${payment.checkoutSessionId}),
      challenge_id = COALESCE(challenge_id, ${payment.challengeId}), updated_at = ${now}::timestamp(3)
    WHERE id = ${paymentRowId}
  )`;
}
