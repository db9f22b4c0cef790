import type { Logger } from 'pino';
import { PolicyIssuedPayloadSchema, type PolicyIssuedPayload } from '@expedition/contracts';
import {
  isUniqueViolation,
  type Operator,
  type Payment,
  type PaymentChannel,
  type Prisma,
  type PrismaClient,
  type Quote,
  type QuoteEstimate,
  type QuoteOption,
} from '@expedition/db';
import { findDestination } from '@expedition/domain-pricing';
import type { PaymentProcessorEvent, ProcessorEvent } from '@expedition/payments';
import { isoDay, type Clock } from '@expedition/quoting';
import { computeCommissionCents } from './commission';
import { randomPolicyNumber, randomWebhookEventId } from './identifiers';

type Tx = Prisma.TransactionClient;

export interface PaymentIntakeDeps {
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  /** Stored on Payment.processor / ProcessorEvent.processor: 'simulated' | 'stripe'. */
  processorName: string;
  newPolicyNumber?: (now: Date) => string;
  newWebhookEventId?: () => string;
}

/** What one processor event led to. Every kind except a thrown error is answered 200 (retrying cannot help). */
export type IntakeOutcome =
  | { kind: 'duplicate' }
  | { kind: 'ignored'; reason: 'not_a_payment_event' | 'unknown_quote' | 'unknown_plan' }
  | { kind: 'payment_failed' }
  | { kind: 'already_recorded'; policyId: string | null }
  | { kind: 'refund_required'; reason: RefundReason }
  | { kind: 'policy_issued'; policyId: string; policyNumber: string; webhookEventId: string | null };

export type RefundReason = 'duplicate_payment' | 'amount_mismatch' | 'plan_not_quoted';

export const NO_WEBHOOK_URL_ERROR = 'no webhook URL configured';

// Unique violations can come from a racing writer (a payment row created by the app that started the payment, the
// other event of a Checkout pair) or from a policy-number collision; the whole transaction is simply re-run.
const TRANSACTION_ATTEMPTS = 5;
const PAYMENT_CHANNELS: readonly PaymentChannel[] = ['checkout_link', 'mpp', 'embed', 'acp'];

/**
 * Turns verified processor events into records. A succeeded payment gets payment, purchase, policy, commission and
 * the `policy.issued` outbox row in ONE transaction (transactional outbox); the processor event row is written in
 * the same transaction, so a replay finds it and changes nothing.
 */
export function createPaymentIntake(deps: PaymentIntakeDeps) {
  const newPolicyNumber = deps.newPolicyNumber ?? randomPolicyNumber;
  const newWebhookEventId = deps.newWebhookEventId ?? randomWebhookEventId;

  async function handle(event: ProcessorEvent): Promise<IntakeOutcome> {
    for (let attempt = 1; ; attempt++) {
      try {
        const outcome = await deps.prisma.$transaction((tx) => handleInTransaction(tx, event), { timeout: 20_000 });
        logOutcome(event, outcome);
        return outcome;
      } catch (err) {
        if (attempt < TRANSACTION_ATTEMPTS && isUniqueViolation(err)) continue;
        throw err;
      }
    }
  }

  async function handleInTransaction(tx: Tx, event: ProcessorEvent): Promise<IntakeOutcome> {
    const now = deps.clock.now();
    // ON CONFLICT DO NOTHING: a concurrent twin waits for our commit, then inserts nothing and reports a duplicate.
    const inserted = await tx.processorEvent.createMany({
      data: [
        {
          processor: deps.processorName,
          processorEventId: event.id,
          type: event.sourceType,
          payload: storablePayload(event.raw),
          receivedAt: now,
          processedAt: now,
        },
      ],
      skipDuplicates: true,
    });
    if (inserted.count === 0) return { kind: 'duplicate' };
    if (event.type === 'other') return { kind: 'ignored', reason: 'not_a_payment_event' };
    return event.type === 'payment.succeeded' ? onSucceeded(tx, event, now) : onFailed(tx, event);
  }

  async function onFailed(tx: Tx, event: PaymentProcessorEvent): Promise<IntakeOutcome> {
    const context = await loadContext(tx, event);
    if ('reason' in context) return { kind: 'ignored', reason: context.reason };
    const failureMessage = [event.declineCode && `decline_code=${event.declineCode}`, event.failureMessage]
      .filter(Boolean)
      .join(': ');
    await upsertPayment(tx, event, context, {
      status: 'failed',
      failureCode: event.failureCode ?? 'payment_failed',
      failureMessage: failureMessage || null,
    });
    return { kind: 'payment_failed' };
  }

  async function onSucceeded(tx: Tx, event: PaymentProcessorEvent, now: Date): Promise<IntakeOutcome> {
    const context = await loadContext(tx, event);
    if ('reason' in context) return { kind: 'ignored', reason: context.reason };
    const payment = await upsertPayment(tx, event, context, { status: 'succeeded', failureCode: null, failureMessage: null });

    const existing = await tx.purchase.findUnique({ where: { quoteId: context.quote.id } });
    if (existing?.processorPaymentId === event.paymentId) {
      const policy = await tx.policy.findUnique({ where: { purchaseId: existing.id }, select: { id: true } });
      return { kind: 'already_recorded', policyId: policy?.id ?? null };
    }
    if (existing) return flagForRefund(tx, payment, 'duplicate_payment', `quote already paid by ${existing.processorPaymentId}`);

    const prices = offeredPrices(context);
    if (prices.size === 0) return flagForRefund(tx, payment, 'plan_not_quoted', `plan ${context.planId} is not among the quote's plans`);
    const currency = event.currency.toUpperCase();
    if (!prices.has(event.amountCents) || currency !== context.quote.currency.toUpperCase()) {
      const expected = [...prices].join(' or ');
      return flagForRefund(tx, payment, 'amount_mismatch', `paid ${event.amountCents} ${currency}, price ${expected} ${context.quote.currency}`);
    }
    return issuePolicy(tx, { ...context, payment, premiumCents: event.amountCents, currency, now });
  }

  async function issuePolicy(tx: Tx, ctx: IssueContext): Promise<IntakeOutcome> {
    const { quote, payment, now } = ctx;
    const purchase = await tx.purchase.create({
      data: {
        quoteId: quote.id,
        planId: ctx.planId,
        paymentId: payment.id,
        processorPaymentId: payment.processorPaymentId,
        amountCents: ctx.premiumCents,
        currency: ctx.currency,
        channel: payment.channel,
        mode: payment.mode,
        operatorId: quote.operatorId,
        createdAt: now,
      },
    });
    const policy = await tx.policy.create({
      data: {
        policyNumber: newPolicyNumber(now),
        purchaseId: purchase.id,
        quoteId: quote.id,
        planId: ctx.planId,
        operatorId: quote.operatorId,
        mode: payment.mode,
        travelers: quote.travelers,
        travelerAges: quote.travelerAges,
        startDate: quote.startDate,
        endDate: quote.endDate,
        premiumCents: ctx.premiumCents,
        currency: ctx.currency,
        issuedAt: now,
      },
    });
    await tx.quote.update({ where: { id: quote.id }, data: { status: 'purchased' } });
    if (ctx.checkoutSession && ctx.checkoutSession.status !== 'paid') {
      await tx.checkoutSession.update({ where: { id: ctx.checkoutSession.id }, data: { status: 'paid', paidAt: now } });
    }

    const { operator } = ctx;
    if (!operator) return { kind: 'policy_issued', policyId: policy.id, policyNumber: policy.policyNumber, webhookEventId: null };

    const commissionCents = computeCommissionCents(ctx.premiumCents, operator.commissionRateBps);
    await tx.commission.create({
      data: {
        policyId: policy.id,
        operatorId: operator.id,
        rateBps: operator.commissionRateBps,
        premiumCents: ctx.premiumCents,
        commissionCents,
        currency: ctx.currency,
        createdAt: now,
      },
    });

    const payload: PolicyIssuedPayload = PolicyIssuedPayloadSchema.parse({
      eventId: newWebhookEventId(),
      type: 'policy.issued',
      createdAt: now.toISOString(),
      mode: payment.mode,
      operatorId: operator.id,
      policyId: policy.id,
      policyNumber: policy.policyNumber,
      quoteId: quote.id,
      quoteNumber: quote.quoteNumber,
      planId: ctx.planId,
      planName: ctx.planName,
      destination: findDestination(quote.destinationSlug)?.name ?? quote.destinationSlug,
      premiumCents: ctx.premiumCents,
      commissionCents,
      commissionRateBps: operator.commissionRateBps,
      currency: ctx.currency,
      travelers: quote.travelers,
      startDate: quote.startDate ? isoDay(quote.startDate) : null,
      endDate: quote.endDate ? isoDay(quote.endDate) : null,
      issuedAt: policy.issuedAt.toISOString(),
    });
    // An operator without a webhook URL still gets policy and commission; the event is kept, visibly failed and
    // never attempted, so it can be replayed once a URL is configured (set status back to pending).
    const deliverable = Boolean(operator.webhookUrl);
    await tx.webhookEvent.create({
      data: {
        eventId: payload.eventId,
        type: payload.type,
        operatorId: operator.id,
        payload,
        status: deliverable ? 'pending' : 'failed',
        lastError: deliverable ? null : NO_WEBHOOK_URL_ERROR,
        nextAttemptAt: now,
        createdAt: now,
      },
    });
    return { kind: 'policy_issued', policyId: policy.id, policyNumber: policy.policyNumber, webhookEventId: payload.eventId };
  }

  async function flagForRefund(tx: Tx, payment: Payment, reason: RefundReason, detail: string): Promise<IntakeOutcome> {
    // Money arrived but nothing will be issued for it: leave a trace on the payment for whoever handles refunds.
    await tx.payment.update({
      where: { id: payment.id },
      data: { failureCode: reason, failureMessage: `refund required: ${detail}` },
    });
    deps.logger.warn({ paymentId: payment.processorPaymentId, quoteId: payment.quoteId, reason, detail }, 'succeeded payment not fulfilled; refund required');
    return { kind: 'refund_required', reason };
  }

  async function loadContext(tx: Tx, event: PaymentProcessorEvent): Promise<PaymentContext | { reason: 'unknown_quote' | 'unknown_plan' }> {
    const quoteId = event.metadata['quoteId'];
    const planId = event.metadata['planId'];
    if (!quoteId) return { reason: 'unknown_quote' };
    // Serializes everything that happens to one quote (two events for one payment, two payments for one quote).
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM quotes WHERE id = ${quoteId} FOR UPDATE`;
    if (locked.length === 0) return { reason: 'unknown_quote' };
    const plan = planId ? await tx.plan.findUnique({ where: { id: planId } }) : null;
    if (!planId || !plan) return { reason: 'unknown_plan' };
    // Plain sequential queries: `include` makes Prisma run relation queries concurrently on the one transaction
    // connection, which pg deprecates.
    const quote = await tx.quote.findUniqueOrThrow({ where: { id: quoteId } });
    const operator = quote.operatorId ? await tx.operator.findUnique({ where: { id: quote.operatorId } }) : null;
    const estimates = await tx.quoteEstimate.findMany({ where: { quoteId, planId } });
    const options = await tx.quoteOption.findMany({ where: { quoteId, planId } });
    const sessionId = event.metadata['checkoutSessionId'];
    const challengeId = event.metadata['challengeId'] ?? event.metadata['challenge_id'];
    // Only references that really belong to this quote are linked (they are foreign keys).
    const checkoutSession = sessionId ? await tx.checkoutSession.findFirst({ where: { id: sessionId, quoteId } }) : null;
    const challenge = challengeId ? await tx.paymentChallenge.findFirst({ where: { id: challengeId, quoteId } }) : null;
    return { quote, operator, estimates, options, planId, planName: plan.name, checkoutSession, challenge };
  }

  async function upsertPayment(
    tx: Tx,
    event: PaymentProcessorEvent,
    ctx: PaymentContext,
    outcome: { status: 'succeeded' | 'failed'; failureCode: string | null; failureMessage: string | null },
  ): Promise<Payment> {
    const amounts = { amountCents: event.amountCents, currency: event.currency.toUpperCase() };
    const current = await tx.payment.findUnique({ where: { processorPaymentId: event.paymentId } });
    if (!current) {
      // The payment started somewhere that did not record it (or not yet): create it from the event's metadata.
      return tx.payment.create({
        data: {
          quoteId: ctx.quote.id,
          planId: ctx.planId,
          operatorId: ctx.quote.operatorId,
          mode: event.mode,
          channel: channelOf(event.metadata, ctx),
          processor: deps.processorName,
          processorPaymentId: event.paymentId,
          checkoutSessionId: ctx.checkoutSession?.id ?? null,
          challengeId: ctx.challenge?.id ?? null,
          ...amounts,
          ...outcome,
        },
      });
    }
    // Events can arrive out of order: a late failure of an earlier attempt never undoes a success.
    if (current.status === 'succeeded' && outcome.status !== 'succeeded') return current;
    return tx.payment.update({
      where: { id: current.id },
      data: {
        ...amounts,
        ...outcome,
        checkoutSessionId: current.checkoutSessionId ?? ctx.checkoutSession?.id ?? null,
        challengeId: current.challengeId ?? ctx.challenge?.id ?? null,
      },
    });
  }

  function logOutcome(event: ProcessorEvent, outcome: IntakeOutcome): void {
    const fields = { processorEventId: event.id, type: event.sourceType, outcome: outcome.kind };
    if (outcome.kind === 'ignored' && outcome.reason !== 'not_a_payment_event') {
      deps.logger.error({ ...fields, reason: outcome.reason }, 'payment event for an unknown quote or plan');
      return;
    }
    deps.logger.info(fields, 'processor event handled');
  }

  return { handle };
}

export type PaymentIntake = ReturnType<typeof createPaymentIntake>;

interface PaymentContext {
  quote: Quote;
  operator: Operator | null;
  /** The quote's estimate and bindable option for the paid plan (0 or 1 each). */
  estimates: QuoteEstimate[];
  options: QuoteOption[];
  planId: string;
  planName: string;
  checkoutSession: { id: string; planId: string; premiumCents: number; status: string } | null;
  challenge: { id: string; planId: string; amountCents: number } | null;
}

interface IssueContext extends PaymentContext {
  payment: Payment;
  premiumCents: number;
  currency: string;
  now: Date;
}

/**
 * Every price we offered for this plan on this quote: the bindable option, the estimate, and the amount fixed by the
 * checkout session or MPP challenge that started the payment. The amount paid must be one of them.
 */
function offeredPrices(ctx: PaymentContext): Set<number> {
  const prices = new Set<number>();
  for (const option of ctx.options) prices.add(option.premiumCents);
  for (const estimate of ctx.estimates) prices.add(estimate.premiumCents);
  if (prices.size === 0) return prices;
  if (ctx.checkoutSession?.planId === ctx.planId) prices.add(ctx.checkoutSession.premiumCents);
  if (ctx.challenge?.planId === ctx.planId) prices.add(ctx.challenge.amountCents);
  return prices;
}

function channelOf(metadata: Record<string, string>, ctx: PaymentContext): PaymentChannel {
  const named = metadata['channel'];
  if (named && (PAYMENT_CHANNELS as readonly string[]).includes(named)) return named as PaymentChannel;
  return ctx.challenge ? 'mpp' : 'checkout_link';
}

/** The raw event, minus the PaymentIntent's client secret (a browser credential we have no reason to keep). */
function storablePayload(raw: unknown): Prisma.InputJsonValue {
  const copy = JSON.parse(JSON.stringify(raw ?? {})) as { data?: { object?: Record<string, unknown> } };
  if (copy.data?.object && 'client_secret' in copy.data.object) delete copy.data.object['client_secret'];
  return copy as Prisma.InputJsonValue;
}
