import type { Mode } from '@expedition/contracts/rules';
import { randomUUID } from 'node:crypto';
import { prepared, Prisma, type PaymentChannel, type PaymentStatus, type Quote } from '@expedition/db';

/**
 * The statements of fulfillment's common path, in plain SQL: record the processor event, read everything a decision
 * needs in one statement, and issue the policy (payment, purchase, policy, quote, checkout link, commission, the
 * `policy.issued` outbox row and the policyholder's confirmation mail job) in one more (issue-sql.ts); the sales that
 * arrive together share both (batcher.ts). Through the ORM the same work took about fifteen round trips, and most of
 * the intake's CPU went to Prisma's client (tools/bench/README.md). The rare paths (refunds, failures, ACP and MPP
 * trust) stay in the ORM, in payment-records.ts and payment-trust.ts. Plain SQL runs the same on PostgreSQL and PGlite.
 * The common path's statements are `prepared()`: parsed and planned once per connection (docs/decisions.md,
 * "Prepared statements").
 *
 * Ids and `updated_at` are made here, as Prisma's client would (`@default(uuid())`, `@updatedAt`). Keep the column
 * lists in step with libs/db/prisma/schema.prisma; the intake and payment suites read every row back through Prisma.
 */

export type Tx = Prisma.TransactionClient;

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

/** One snapshot to read: which payment (and processor event) it is about. */
export interface SnapshotRequest {
  key: SnapshotKey;
  processorPaymentId: string;
  processorEventId?: string;
}

/**
 * Reads, in one statement, what deciding on a payment needs: the quote, the plan's name and our price for it, the
 * operator, our row of the payment, the purchase of the quote if any, and whether the event is recorded already.
 * Null when the quote does not exist (or, keyed by the stored payment, when we stored none). Reads any number of
 * payments at once (the sales that arrive together, batcher.ts) in the same statement: its text does not depend on
 * how many.
 */
export async function readPaymentSnapshots(
  db: Tx,
  requests: readonly SnapshotRequest[],
): Promise<(PaymentSnapshot | null)[]> {
  // A null quote or plan id means: the stored payment's (COALESCE below).
  const keys = JSON.stringify(
    requests.map((r, i) => ({
      ord: i + 1,
      quote_id: 'quoteId' in r.key ? r.key.quoteId : null,
      plan_id: 'planId' in r.key ? r.key.planId : null,
      payment_id: r.processorPaymentId,
      event_id: r.processorEventId ?? null,
    })),
  );
  const rows = await db.$queryRaw<(SnapshotRow & { ord: number })[]>(
    prepared(Prisma.sql`
    SELECT k.ord, q.id, q.quote_number AS "quoteNumber", q.mode, q.currency,
      q.operator_id AS "operatorId", q.travelers, q.traveler_ages AS "travelerAges", q.start_date AS "startDate",
      q.end_date AS "endDate", q.destination_slug AS "destinationSlug",
      COALESCE(k.plan_id, pay.plan_id) AS "planId", pl.name AS "planName",
      COALESCE(qo.premium_cents, qe.premium_cents) AS price,
      o.commission_rate_bps AS "operatorRateBps", o.webhook_url AS "operatorWebhookUrl",
      CASE WHEN pay.id IS NULL THEN NULL ELSE json_build_object('id', pay.id, 'status', pay.status, 'mode', pay.mode,
        'channel', pay.channel, 'quoteId', pay.quote_id, 'planId', pay.plan_id,
        'checkoutSessionId', pay.checkout_session_id, 'challengeId', pay.challenge_id) END AS payment,
      pu.processor_payment_id AS "purchasedBy",
      EXISTS (SELECT 1 FROM processor_events WHERE processor_event_id = k.event_id) AS "eventRecorded"
    FROM batch_rows(${keys}::jsonb) AS b(doc)
      CROSS JOIN LATERAL jsonb_to_record(b.doc) AS k(ord int, quote_id text, plan_id text, payment_id text, event_id text)
    LEFT JOIN payments pay ON pay.processor_payment_id = k.payment_id
    JOIN quotes q ON q.id = COALESCE(k.quote_id, pay.quote_id)
    LEFT JOIN plans pl ON pl.id = COALESCE(k.plan_id, pay.plan_id)
    LEFT JOIN operators o ON o.id = q.operator_id
    LEFT JOIN quote_options qo ON qo.quote_id = q.id AND qo.plan_id = COALESCE(k.plan_id, pay.plan_id)
    LEFT JOIN quote_estimates qe ON qe.quote_id = q.id AND qe.plan_id = COALESCE(k.plan_id, pay.plan_id)
    LEFT JOIN purchases pu ON pu.quote_id = q.id`),
  );
  const snapshots: (PaymentSnapshot | null)[] = requests.map(() => null);
  for (const r of rows) snapshots[r.ord - 1] = snapshotOf(r);
  return snapshots;
}

/** One payment's snapshot (the locked way reads inside its transaction, one at a time). */
export async function readPaymentSnapshot(
  db: Tx,
  key: SnapshotKey,
  processorPaymentId: string,
  processorEventId?: string,
): Promise<PaymentSnapshot | null> {
  const [snapshot] = await readPaymentSnapshots(db, [{ key, processorPaymentId, processorEventId }]);
  return snapshot ?? null;
}

function snapshotOf(r: SnapshotRow): PaymentSnapshot {
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
