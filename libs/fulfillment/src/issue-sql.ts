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
  payId: string;
  /** insert: we never stored the payment; update: mark ours succeeded; keep: a success once recorded is never rewritten. */
  payAction: 'insert' | 'update' | 'keep';
  quoteId: string;
  planId: string;
  operatorId: string | null;
  quoteMode: Mode;
  payMode: Mode;
  payChannel: PaymentChannel;
  processor: string;
  processorPaymentId: string;
  checkoutSessionId: string | null;
  challengeId: string | null;
  amountCents: number;
  currency: string;
  /** ISO 8601 in UTC: a `timestamp` column holds UTC wall time (as Prisma writes it), whatever the server's zone. */
  at: string;
  evId: string | null;
  evEventId: string | null;
  evType: string | null;
  evPayload: unknown;
  purchaseId: string;
  premiumCents: number;
  purchaseChannel: PaymentChannel;
  policyId: string;
  policyNumber: string;
  travelers: number;
  travelerAges: number[];
  startDate: string | null;
  endDate: string | null;
  mailId: string;
  /** The checkout link whose buyer e-mail the confirmation goes to, before the quote's. */
  mailSessionId: string | null;
  /** The checkout link to mark paid. */
  linkId: string | null;
  acpId: string | null;
  acpEventId: string | null;
  acpType: string | null;
  acpPayload: unknown;
  commissionId: string | null;
  opId: string | null;
  rateBps: number | null;
  commissionCents: number | null;
  whId: string | null;
  whEventId: string | null;
  whPayload: unknown;
  whStatus: 'pending' | 'failed' | null;
  whLastError: string | null;
  whTraceParent: string | null;
}

/** The statement's columns, in order: name, PostgreSQL type, value (JSON). The order fixes the statement's text. */
const SALE_COLUMNS: readonly [string, string, (r: SaleRow) => unknown][] = [
  ['pay_id', 'text', (r) => r.payId],
  ['pay_action', 'text', (r) => r.payAction],
  ['quote_id', 'text', (r) => r.quoteId],
  ['plan_id', 'text', (r) => r.planId],
  ['operator_id', 'text', (r) => r.operatorId],
  ['quote_mode', 'key_mode', (r) => r.quoteMode],
  ['pay_mode', 'key_mode', (r) => r.payMode],
  ['pay_channel', 'payment_channel', (r) => r.payChannel],
  ['processor', 'text', (r) => r.processor],
  ['processor_payment_id', 'text', (r) => r.processorPaymentId],
  ['checkout_session_id', 'text', (r) => r.checkoutSessionId],
  ['challenge_id', 'text', (r) => r.challengeId],
  ['amount_cents', 'int', (r) => r.amountCents],
  ['currency', 'text', (r) => r.currency],
  ['at', 'timestamp(3)', (r) => r.at],
  ['ev_id', 'text', (r) => r.evId],
  ['ev_event_id', 'text', (r) => r.evEventId],
  ['ev_type', 'text', (r) => r.evType],
  ['ev_payload', 'jsonb', (r) => r.evPayload],
  ['purchase_id', 'text', (r) => r.purchaseId],
  ['premium_cents', 'int', (r) => r.premiumCents],
  ['purchase_channel', 'payment_channel', (r) => r.purchaseChannel],
  ['policy_id', 'text', (r) => r.policyId],
  ['policy_number', 'text', (r) => r.policyNumber],
  ['travelers', 'int', (r) => r.travelers],
  ['traveler_ages', 'int[]', (r) => r.travelerAges],
  ['start_date', 'date', (r) => r.startDate],
  ['end_date', 'date', (r) => r.endDate],
  ['mail_id', 'text', (r) => r.mailId],
  ['mail_session_id', 'text', (r) => r.mailSessionId],
  ['link_id', 'text', (r) => r.linkId],
  ['acp_id', 'text', (r) => r.acpId],
  ['acp_event_id', 'text', (r) => r.acpEventId],
  ['acp_type', 'text', (r) => r.acpType],
  ['acp_payload', 'jsonb', (r) => r.acpPayload],
  ['commission_id', 'text', (r) => r.commissionId],
  ['op_id', 'text', (r) => r.opId],
  ['rate_bps', 'int', (r) => r.rateBps],
  ['commission_cents', 'int', (r) => r.commissionCents],
  ['wh_id', 'text', (r) => r.whId],
  ['wh_event_id', 'text', (r) => r.whEventId],
  ['wh_payload', 'jsonb', (r) => r.whPayload],
  ['wh_status', 'webhook_event_status', (r) => r.whStatus],
  ['wh_last_error', 'text', (r) => r.whLastError],
  ['wh_trace_parent', 'text', (r) => r.whTraceParent],
];

const isoDate = (d: Date | null) => (d ? d.toISOString().slice(0, 10) : null);

function saleRow(s: Issue, purchase: Purchase, payId: string): SaleRow {
  const { payment, quote, event, acpOrder, operator: op } = s;
  const current = payment.current;
  return {
    payId,
    payAction: !current ? 'insert' : current.status === 'succeeded' ? 'keep' : 'update',
    quoteId: quote.id,
    planId: s.planId,
    operatorId: quote.operatorId,
    quoteMode: quote.mode,
    payMode: payment.mode,
    payChannel: payment.channel,
    processor: s.processor,
    processorPaymentId: payment.processorPaymentId,
    checkoutSessionId: payment.checkoutSessionId,
    challengeId: payment.challengeId,
    amountCents: payment.amountCents,
    currency: s.currency,
    at: s.now.toISOString(),
    evId: event ? randomUUID() : null,
    evEventId: event?.processorEventId ?? null,
    evType: event?.type ?? null,
    evPayload: event?.payload ?? null,
    purchaseId: purchase.id,
    premiumCents: s.premiumCents,
    purchaseChannel: purchase.channel,
    policyId: s.policy.id,
    policyNumber: s.policy.policyNumber,
    travelers: quote.travelers,
    travelerAges: quote.travelerAges,
    startDate: isoDate(quote.startDate),
    endDate: isoDate(quote.endDate),
    mailId: randomUUID(),
    mailSessionId: current?.checkoutSessionId ?? payment.checkoutSessionId,
    linkId: current
      ? (current.checkoutSessionId ?? (current.status === 'succeeded' ? null : payment.checkoutSessionId))
      : payment.checkoutSessionId,
    acpId: acpOrder ? randomUUID() : null,
    acpEventId: acpOrder?.eventId ?? null,
    acpType: acpOrder?.payload.type ?? null,
    acpPayload: acpOrder?.payload ?? null,
    commissionId: op ? randomUUID() : null,
    opId: op?.id ?? null,
    rateBps: op?.rateBps ?? null,
    commissionCents: op?.commissionCents ?? null,
    whId: op ? randomUUID() : null,
    whEventId: op?.webhook.eventId ?? null,
    whPayload: op?.webhook.payload ?? null,
    whStatus: op ? (op.webhook.deliverable ? 'pending' : 'failed') : null,
    whLastError: op?.webhook.lastError ?? null,
    whTraceParent: op?.webhook.traceParent ?? null,
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
  const table = JSON.stringify(
    rows.map((r) => Object.fromEntries(SALE_COLUMNS.map(([name, , value]) => [name, value(r)]))),
  );
  const columns = Prisma.raw(SALE_COLUMNS.map(([name, type]) => `${name} ${type}`).join(', '));
  await db.$executeRaw(
    prepared(Prisma.sql`
    WITH sale AS (
      SELECT k.* FROM batch_rows(${table}::jsonb) AS b(doc) CROSS JOIN LATERAL jsonb_to_record(b.doc) AS k(${columns})
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
