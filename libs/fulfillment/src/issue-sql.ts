import type { Mode } from '@expedition/contracts/rules';
import { randomUUID } from 'node:crypto';
import { prepared, Prisma, type PaymentChannel, type Purchase } from '@expedition/db';
import type { AcpOrderEventRow } from './acp-order-events';
import type { CurrentPayment, QuoteFacts, Tx } from './fulfillment-sql';

/**
 * The statement that issues policies: the sale's one write (fulfillment-sql.ts has the reads and the event's record).
 * Plain SQL, as there: ids and `updated_at` are made here, as Prisma's client would; keep the column lists in step
 * with libs/db/prisma/schema.prisma (the intake and payment suites read every row back through Prisma).
 */

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

/** Purchase, payment-row id and the rest of one sale, as the issuing statement takes them: one column each. */
interface SaleRow {
  pay_id: string;
  /** insert: we never stored the payment; update: mark ours succeeded; keep: a success once recorded is never rewritten. */
  pay_action: 'insert' | 'update' | 'keep';
  quote_id: string;
  plan_id: string;
  operator_id: string | null;
  quote_mode: Mode;
  pay_mode: Mode;
  pay_channel: PaymentChannel;
  processor: string;
  processor_payment_id: string;
  checkout_session_id: string | null;
  challenge_id: string | null;
  amount_cents: number;
  currency: string;
  /** ISO 8601 in UTC: a `timestamp` column holds UTC wall time (as Prisma writes it), whatever the server's zone. */
  at: string;
  ev_id: string | null;
  ev_event_id: string | null;
  ev_type: string | null;
  ev_payload: unknown;
  purchase_id: string;
  premium_cents: number;
  purchase_channel: PaymentChannel;
  policy_id: string;
  policy_number: string;
  travelers: number;
  traveler_ages: number[];
  start_date: string | null;
  end_date: string | null;
  mail_id: string;
  /** The checkout link whose buyer e-mail the confirmation goes to, before the quote's. */
  mail_session_id: string | null;
  /** The checkout link to mark paid. */
  link_id: string | null;
  acp_id: string | null;
  acp_event_id: string | null;
  acp_type: string | null;
  acp_payload: unknown;
  commission_id: string | null;
  op_id: string | null;
  rate_bps: number | null;
  commission_cents: number | null;
  wh_id: string | null;
  wh_event_id: string | null;
  wh_payload: unknown;
  wh_status: 'pending' | 'failed' | null;
  wh_last_error: string | null;
  wh_trace_parent: string | null;
}

/** Each column's PostgreSQL type (every key of SaleRow, checked by the compiler); the order fixes the statement's text. */
const SALE_TYPES: { readonly [K in keyof SaleRow]: string } = {
  pay_id: 'text',
  pay_action: 'text',
  quote_id: 'text',
  plan_id: 'text',
  operator_id: 'text',
  quote_mode: 'key_mode',
  pay_mode: 'key_mode',
  pay_channel: 'payment_channel',
  processor: 'text',
  processor_payment_id: 'text',
  checkout_session_id: 'text',
  challenge_id: 'text',
  amount_cents: 'int',
  currency: 'text',
  at: 'timestamp(3)',
  ev_id: 'text',
  ev_event_id: 'text',
  ev_type: 'text',
  ev_payload: 'jsonb',
  purchase_id: 'text',
  premium_cents: 'int',
  purchase_channel: 'payment_channel',
  policy_id: 'text',
  policy_number: 'text',
  travelers: 'int',
  traveler_ages: 'int[]',
  start_date: 'date',
  end_date: 'date',
  mail_id: 'text',
  mail_session_id: 'text',
  link_id: 'text',
  acp_id: 'text',
  acp_event_id: 'text',
  acp_type: 'text',
  acp_payload: 'jsonb',
  commission_id: 'text',
  op_id: 'text',
  rate_bps: 'int',
  commission_cents: 'int',
  wh_id: 'text',
  wh_event_id: 'text',
  wh_payload: 'jsonb',
  wh_status: 'webhook_event_status',
  wh_last_error: 'text',
  wh_trace_parent: 'text',
};

const SALE_COLUMNS = Object.entries(SALE_TYPES)
  .map(([name, type]) => `${name} ${type}`)
  .join(', ');

const isoDate = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

function saleRow(s: Issue, purchase: Purchase, payId: string): SaleRow {
  const { payment, quote, event, acpOrder, operator: op } = s;
  const current = payment.current;
  return {
    pay_id: payId,
    pay_action: !current ? 'insert' : current.status === 'succeeded' ? 'keep' : 'update',
    quote_id: quote.id,
    plan_id: s.planId,
    operator_id: quote.operatorId,
    quote_mode: quote.mode,
    pay_mode: payment.mode,
    pay_channel: payment.channel,
    processor: s.processor,
    processor_payment_id: payment.processorPaymentId,
    checkout_session_id: payment.checkoutSessionId,
    challenge_id: payment.challengeId,
    amount_cents: payment.amountCents,
    currency: s.currency,
    at: s.now.toISOString(),
    ev_id: event ? randomUUID() : null,
    ev_event_id: event?.processorEventId ?? null,
    ev_type: event?.type ?? null,
    ev_payload: event?.payload ?? null,
    purchase_id: purchase.id,
    premium_cents: s.premiumCents,
    purchase_channel: purchase.channel,
    policy_id: s.policy.id,
    policy_number: s.policy.policyNumber,
    travelers: quote.travelers,
    traveler_ages: quote.travelerAges,
    start_date: isoDate(quote.startDate),
    end_date: isoDate(quote.endDate),
    mail_id: randomUUID(),
    mail_session_id: current?.checkoutSessionId ?? payment.checkoutSessionId,
    link_id: current
      ? (current.checkoutSessionId ?? (current.status === 'succeeded' ? null : payment.checkoutSessionId))
      : payment.checkoutSessionId,
    acp_id: acpOrder ? randomUUID() : null,
    acp_event_id: acpOrder?.eventId ?? null,
    acp_type: acpOrder?.payload.type ?? null,
    acp_payload: acpOrder?.payload ?? null,
    commission_id: op ? randomUUID() : null,
    op_id: op?.id ?? null,
    rate_bps: op?.rateBps ?? null,
    commission_cents: op?.commissionCents ?? null,
    wh_id: op ? randomUUID() : null,
    wh_event_id: op?.webhook.eventId ?? null,
    wh_payload: op?.webhook.payload ?? null,
    wh_status: op ? (op.webhook.deliverable ? 'pending' : 'failed') : null,
    wh_last_error: op?.webhook.lastError ?? null,
    wh_trace_parent: op?.webhook.traceParent ?? null,
  };
}

/**
 * Issues policies in ONE statement (data-modifying CTEs: every part runs, atomically, in one round trip), any number
 * of sales at once (the sales that arrive together, batcher.ts; the statement's text does not depend on how many).
 * For each sale: the payment marked succeeded (created when we never stored it; a success once recorded is never
 * rewritten), the processor event that reported it, the purchase, the policy, its confirmation mail job, the quote
 * marked purchased, its checkout link paid, and, through an operator, the commission and the `policy.issued` outbox
 * row, and for an ACP sale the `order_create` event. A taken policy number or a racing purchase surfaces as the usual
 * unique violation, and fails every sale of the statement: the batcher then re-runs each alone.
 */
export async function issuePolicyRows(db: Tx, sales: readonly Issue[]): Promise<Purchase[]> {
  const payIds = sales.map((s) => s.payment.current?.id ?? randomUUID());
  const purchases = sales.map(({ now, quote, payment, planId, premiumCents, currency }, i): Purchase => ({
    id: randomUUID(),
    quoteId: quote.id,
    planId,
    paymentId: payIds[i]!,
    processorPaymentId: payment.processorPaymentId,
    amountCents: premiumCents,
    currency,
    channel: payment.current?.channel ?? payment.channel,
    mode: quote.mode,
    operatorId: quote.operatorId,
    createdAt: now,
  }));
  const rows = sales.map((s, i) => saleRow(s, purchases[i]!, payIds[i]!));
  // One JSON array, one object per sale: the statement's text is the same for any number of sales, so each connection
  // prepares it once and keeps one generic plan (batch_rows tells the planner "a few rows": migration batch_rows).
  const table = JSON.stringify(rows);
  await db.$executeRaw(
    prepared(Prisma.sql`
    WITH sale AS (
      SELECT k.* FROM batch_rows(${table}::jsonb) AS b(doc) CROSS JOIN LATERAL jsonb_to_record(b.doc) AS k(${Prisma.raw(SALE_COLUMNS)})
    ),
    payment_new AS (
      INSERT INTO payments (id, quote_id, plan_id, operator_id, mode, channel, processor, processor_payment_id,
        checkout_session_id, challenge_id, amount_cents, currency, status, updated_at)
      SELECT pay_id, quote_id, plan_id, operator_id, pay_mode, pay_channel, processor, processor_payment_id,
        checkout_session_id, challenge_id, amount_cents, currency, 'succeeded'::payment_status, at
      FROM sale WHERE pay_action = 'insert'
    ),
    payment_paid AS (
      UPDATE payments p SET amount_cents = sale.amount_cents, currency = sale.currency, status = 'succeeded'::payment_status,
        failure_code = NULL, failure_message = NULL,
        checkout_session_id = COALESCE(p.checkout_session_id, sale.checkout_session_id),
        challenge_id = COALESCE(p.challenge_id, sale.challenge_id), updated_at = sale.at
      FROM sale WHERE p.id = sale.pay_id AND sale.pay_action = 'update'
    ),
    event AS (
      INSERT INTO processor_events (id, processor, processor_event_id, type, payload, received_at, processed_at)
      SELECT ev_id, processor, ev_event_id, ev_type, ev_payload, at, at FROM sale WHERE ev_event_id IS NOT NULL
    ),
    purchase AS (
      INSERT INTO purchases (id, quote_id, plan_id, payment_id, processor_payment_id, amount_cents, currency, channel,
        mode, operator_id, created_at)
      SELECT purchase_id, quote_id, plan_id, pay_id, processor_payment_id, premium_cents, currency, purchase_channel,
        quote_mode, operator_id, at
      FROM sale
    ),
    policy AS (
      INSERT INTO policies (id, policy_number, purchase_id, quote_id, plan_id, operator_id, mode, travelers,
        traveler_ages, start_date, end_date, premium_cents, currency, issued_at)
      SELECT policy_id, policy_number, purchase_id, quote_id, plan_id, operator_id, quote_mode, travelers,
        traveler_ages, start_date, end_date, premium_cents, currency, at
      FROM sale
    ),
    purchased AS (
      UPDATE quotes q SET status = 'purchased'::quote_status, updated_at = sale.at FROM sale WHERE q.id = sale.quote_id
    ),
    mail AS (
      -- The policyholder's confirmation e-mail, queued with the policy (transactional outbox: no policy without its
      -- mail job, no mail job without its policy). The address is the one the buyer gave on the checkout link, else
      -- the quote's (widget, hosted page, MPP, ACP buyer.email); without one the row says no_address, so the
      -- operator's portal can tell "not sent: no address" from "pending". The dispatcher's mail worker sends it.
      INSERT INTO policy_mails (id, policy_id, kind, recipient, status, next_attempt_at, created_at)
      SELECT sale.mail_id, sale.policy_id, 'confirmation', a.address,
        (CASE WHEN a.address IS NULL THEN 'no_address' ELSE 'pending' END)::"PolicyMailStatus", sale.at, sale.at
      FROM sale CROSS JOIN LATERAL (SELECT COALESCE(
        (SELECT NULLIF(btrim(email), '') FROM checkout_sessions WHERE id = sale.mail_session_id),
        (SELECT NULLIF(btrim(email), '') FROM quotes WHERE id = sale.quote_id)) AS address) a
    ),
    link_paid AS (
      UPDATE checkout_sessions c SET status = 'paid'::checkout_status, paid_at = sale.at, updated_at = sale.at
      FROM sale WHERE c.id = sale.link_id AND c.status <> 'paid'
    ),
    acp_order_event AS (
      -- ACP order_create (acp-order-events.ts): to the agent key of the ACP session that quoted the trip (each
      -- session quotes for itself, so there is at most one), only when that key has a webhook URL.
      INSERT INTO acp_order_events (id, event_id, agent_key_id, type, checkout_session_id, payload, status,
        next_attempt_at, created_at)
      SELECT sale.acp_id, sale.acp_event_id, s.key_id, sale.acp_type, s.id,
        jsonb_set(sale.acp_payload, '{data,checkout_session_id}', to_jsonb(s.id)), 'pending'::webhook_event_status,
        sale.at, sale.at
      FROM sale CROSS JOIN LATERAL (
        SELECT cs.id, k.id AS key_id FROM acp_checkout_sessions cs JOIN agent_keys k ON k.id = cs.agent_key_id
        WHERE cs.quote_id = sale.quote_id AND k.webhook_url IS NOT NULL ORDER BY cs.created_at LIMIT 1) s
      WHERE sale.acp_event_id IS NOT NULL
    ),
    commission AS (
      INSERT INTO commissions (id, policy_id, operator_id, rate_bps, premium_cents, commission_cents, currency,
        created_at)
      SELECT commission_id, policy_id, op_id, rate_bps, premium_cents, commission_cents, currency, at
      FROM sale WHERE commission_id IS NOT NULL
    ),
    outbox AS (
      INSERT INTO webhook_events (id, event_id, type, operator_id, payload, status, last_error, next_attempt_at,
        created_at, trace_parent)
      SELECT wh_id, wh_event_id, 'policy.issued', op_id, wh_payload, wh_status, wh_last_error, at, at, wh_trace_parent
      FROM sale WHERE wh_id IS NOT NULL
    )
    SELECT 1`),
  );
  return purchases;
}
