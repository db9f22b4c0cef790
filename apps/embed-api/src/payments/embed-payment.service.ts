import {
  EMBED_PAYMENT_ALREADY_PURCHASED,
  EMBED_PAYMENT_CONFIRM_FAILED,
  EMBED_PAYMENT_IN_PROGRESS,
  EMBED_PAYMENT_MODE_MISMATCH,
  EMBED_PAYMENT_NOT_AWAITING_AUTHENTICATION,
  EMBED_PAYMENT_NOT_CONFIRMABLE,
  EMBED_PAYMENT_OPTIONS_NOT_READY,
  EMBED_PAYMENT_PLAN_NOT_OFFERED,
  EMBED_PAYMENT_PLAN_NOT_PURCHASABLE,
  EMBED_PAYMENT_QUOTE_EXPIRED,
  EMBED_PAYMENT_UNAVAILABLE,
  type EmbedPaymentConfirmResult,
  type EmbedPaymentStartRequest,
  type EmbedPaymentStartResult,
  type Mode,
} from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import {
  createMoneyPath,
  policyLinks,
  succeededPaymentOf,
  type AttemptEnd,
  type FulfillmentOutcome,
  type MoneyPath,
  type PolicyTokens,
} from '@expedition/fulfillment';
import { getPlan, isPurchasable } from '@expedition/domain-pricing';
import type { Logger } from '@expedition/platform';
import {
  PaymentProcessorError,
  type ConfirmPaymentResult,
  type CreatePaymentResult,
  type PaymentProcessor,
  type SimulatedProcessor,
} from '@expedition/payments';
import { isUuid, type Clock } from '@expedition/platform';
import { PLACEHOLDER_QUOTE_ID } from '../options/embed-options.router';

export interface EmbedPaymentsOptions {
  processor: PaymentProcessor;
  /** Stripe.js publishable key per mode; only read when the processor is Stripe. */
  stripePublishableKeys?: Partial<Record<Mode, string>>;
}

export interface EmbedPaymentServiceDeps extends EmbedPaymentsOptions {
  prisma: PrismaClient;
  clock: Clock;
  logger: Logger;
  /** The per-quote payment claim and fulfillment; built from the deps when absent. */
  moneyPath?: Pick<MoneyPath, 'guard' | 'fulfillment'>;
  /** quote-api's public URL: the certificate link on the paying call's answer and in `policy.issued`. */
  quoteApiUrl?: string;
  /** Derives the bought policy's access token for the paying call's answer (it is never stored). */
  policyTokens: PolicyTokens;
}

/** Who pays: the presented key's operator and mode (the gate's context). */
export interface Payer {
  operatorId: string;
  mode: Mode;
  keyId: string;
}

/** `forbidden` is the gate's bare 403 (no existence oracle); `refused` is a `{ error }` body with CORS. */
export type PaymentOutcome<T> =
  { kind: 'ok'; body: T } | { kind: 'forbidden' } | { kind: 'refused'; status: 400 | 409; error: string };

const FORBIDDEN = { kind: 'forbidden' } as const;
const refused = (status: 400 | 409, error: string) => ({ kind: 'refused', status, error }) as const;

/** Simulated and Stripe PaymentIntent ids; anything else is looked up as a placeholder (same work as unknown). */
const PAYMENT_ID = /^pi_[A-Za-z0-9_]{1,250}$/;
const PLACEHOLDER_PAYMENT_ID = 'pi_embed_placeholder_never_issued';

/**
 * Tier 3 payments for the iframe. Starting a payment creates (or finds again: one intent per quote + plan) the
 * processor's PaymentIntent for exactly the option's price, in the presented key's mode, and records a `pending`
 * Payment row so the confirm route can check ownership and the payment is visible before the processor's event.
 * Fulfilment (purchase, policy, commission, `policy.issued`) is NOT done here: the processor's signed event reaches
 * the dispatcher's intake, the same path as every other payment.
 */
export function createEmbedPaymentService(deps: EmbedPaymentServiceDeps) {
  const { prisma, processor, logger } = deps;
  const moneyPath =
    deps.moneyPath ?? createMoneyPath({ prisma, clock: deps.clock, logger, processor, quoteApiUrl: deps.quoteApiUrl });

  async function start(
    input: EmbedPaymentStartRequest,
    payer: Payer,
  ): Promise<PaymentOutcome<EmbedPaymentStartResult>> {
    const quoteId = isUuid(input.quoteId) ? input.quoteId : null;
    const quote = await prisma.quote.findUnique({
      where: { id: quoteId ?? PLACEHOLDER_QUOTE_ID },
      select: {
        id: true,
        operatorId: true,
        mode: true,
        status: true,
        optionsStatus: true,
        expiresAt: true,
        purchase: { select: { id: true } },
      },
    });
    if (!quoteId || !quote || quote.operatorId !== payer.operatorId) return FORBIDDEN;
    // A test payment must never use up a live quote (one purchase per quote), nor a live charge pay for a test one.
    if (quote.mode !== payer.mode) return refused(400, EMBED_PAYMENT_MODE_MISMATCH);
    if (quote.purchase || quote.status === 'purchased') return refused(409, EMBED_PAYMENT_ALREADY_PURCHASED);
    if (quote.expiresAt && quote.expiresAt <= deps.clock.now()) return refused(400, EMBED_PAYMENT_QUOTE_EXPIRED);
    if (quote.optionsStatus !== 'ready') return refused(400, EMBED_PAYMENT_OPTIONS_NOT_READY);

    const option = await prisma.quoteOption.findUnique({
      where: { quoteId_planId: { quoteId: quote.id, planId: input.planId } },
      select: { planId: true, premiumCents: true, currency: true },
    });
    // The same rule as the ready payload's `checkout.purchasable`, re-evaluated against the catalog now.
    const plan = option ? getPlan(option.planId) : undefined;
    if (!option || !plan) return refused(400, EMBED_PAYMENT_PLAN_NOT_OFFERED);
    if (!isPurchasable(plan) || option.premiumCents <= 0) return refused(400, EMBED_PAYMENT_PLAN_NOT_PURCHASABLE);

    const stripePublishableKey = processor.name === 'stripe' ? deps.stripePublishableKeys?.[payer.mode] : undefined;
    if (processor.name === 'stripe' && !stripePublishableKey) {
      logger.error({ mode: payer.mode }, `embed payments need STRIPE_${payer.mode.toUpperCase()}_PUBLISHABLE_KEY`);
      return refused(400, EMBED_PAYMENT_UNAVAILABLE);
    }

    const amount = { amountCents: option.premiumCents, currency: option.currency.toUpperCase() };
    let created: CreatePaymentResult;
    try {
      created = await processor.createPayment({
        amountCents: amount.amountCents,
        currency: amount.currency.toLowerCase(),
        mode: payer.mode,
        idempotencyKey: `embed_${quote.id}_${option.planId}`,
        metadata: { quoteId: quote.id, planId: option.planId, operatorId: payer.operatorId, channel: 'embed' },
      });
      // Paid through this very intent (a confirmation whose process died before it recorded it): recorded now, so the
      // answer is true at once and the policy exists (fulfillment is idempotent per processor payment).
      if (created.status === 'succeeded') {
        const row = await prisma.payment.findUnique({ where: { processorPaymentId: created.paymentId } });
        if (row) await moneyPath.fulfillment.recordSucceededPayment(succeededPaymentOf(row));
        return refused(409, EMBED_PAYMENT_ALREADY_PURCHASED);
      }
      await prisma.payment.createMany({
        data: [
          {
            quoteId: quote.id,
            planId: option.planId,
            operatorId: payer.operatorId,
            mode: payer.mode,
            channel: 'embed',
            processor: processor.name,
            processorPaymentId: created.paymentId,
            ...amount,
            status: 'pending',
          },
        ],
        // Starting again returns the same intent; its row (possibly already updated by the intake) stays as it is.
        skipDuplicates: true,
      });
    } catch (err) {
      logger.error(
        { err, quoteId: quote.id, planId: option.planId, keyId: payer.keyId },
        'embed payment could not be started',
      );
      return refused(400, EMBED_PAYMENT_UNAVAILABLE);
    }
    return {
      kind: 'ok',
      body: {
        paymentId: created.paymentId,
        clientSecret: created.clientSecret,
        ...amount,
        provider: processor.name,
        mode: payer.mode,
        ...(stripePublishableKey ? { stripePublishableKey } : {}),
      },
    };
  }

  /** Confirms an embed payment of the payer's operator with a magic test card (simulated processor only). */
  async function confirm(input: { paymentId: string; paymentMethod: string }, payer: Payer) {
    return withOwnedPayment(input.paymentId, payer, (payment, idempotencyKey) =>
      processor.confirmPayment({
        paymentId: payment.processorPaymentId,
        mode: payer.mode,
        paymentMethod: input.paymentMethod,
        idempotencyKey,
      }),
    );
  }

  /** Answers the simulated 3-D Secure challenge of a `requires_action` payment (simulated processor only). */
  async function authenticate(input: { paymentId: string; approve: boolean }, payer: Payer) {
    const simulated = processor as Partial<SimulatedProcessor>;
    return withOwnedPayment(
      input.paymentId,
      payer,
      async (payment) => {
        if (!simulated.completeAction) throw new PaymentProcessorError('invalid_request', 'no 3-D Secure simulation');
        return simulated.completeAction({
          paymentId: payment.processorPaymentId,
          mode: payer.mode,
          approve: input.approve,
        });
      },
      EMBED_PAYMENT_NOT_AWAITING_AUTHENTICATION,
    );
  }

  /**
   * Ownership by our own Payment row (written when the payment was started): an unknown, malformed, foreign or
   * non-embed payment id all get the same single-row lookup and the same bare 403.
   */
  async function withOwnedPayment(
    presentedId: string,
    payer: Payer,
    act: (payment: { processorPaymentId: string }, idempotencyKey: string) => Promise<ConfirmPaymentResult>,
    unexpectedStateError = EMBED_PAYMENT_NOT_CONFIRMABLE,
  ): Promise<PaymentOutcome<EmbedPaymentConfirmResult>> {
    const paymentId = PAYMENT_ID.test(presentedId) ? presentedId : null;
    const payment = await prisma.payment.findUnique({
      where: { processorPaymentId: paymentId ?? PLACEHOLDER_PAYMENT_ID },
      select: {
        processorPaymentId: true,
        quoteId: true,
        planId: true,
        operatorId: true,
        mode: true,
        channel: true,
        amountCents: true,
        currency: true,
      },
    });
    if (!paymentId || !payment || payment.operatorId !== payer.operatorId || payment.channel !== 'embed')
      return FORBIDDEN;
    if (payment.mode !== payer.mode) return refused(400, EMBED_PAYMENT_MODE_MISMATCH);
    // Bought meanwhile (another link, another plan's intent): confirming would only take money to refund.
    const purchase = await prisma.purchase.findUnique({ where: { quoteId: payment.quoteId }, select: { id: true } });
    if (purchase) return refused(409, EMBED_PAYMENT_ALREADY_PURCHASED);

    // Money moves here: under the quote's payment claim, like every other channel.
    let result: ConfirmPaymentResult;
    let outcome: FulfillmentOutcome | undefined;
    try {
      const guarded = await moneyPath.guard.run(payment.quoteId, 'embed', async (claim) => {
        if (!(await claim.name(payment.processorPaymentId))) return { end: 'none' as AttemptEnd, value: null };
        const confirmed = await act(payment, claim.key);
        if (confirmed.status !== 'succeeded') {
          return { end: (confirmed.status === 'processing' ? 'unknown' : 'none') as AttemptEnd, value: confirmed };
        }
        outcome = await moneyPath.fulfillment.recordSucceededPayment(succeededPaymentOf(payment));
        return { end: 'charged' as AttemptEnd, value: confirmed };
      });
      if (guarded.kind === 'paid') return refused(409, EMBED_PAYMENT_ALREADY_PURCHASED);
      if (guarded.kind === 'busy' || !guarded.value) return refused(409, EMBED_PAYMENT_IN_PROGRESS);
      result = guarded.value;
    } catch (err) {
      if (err instanceof PaymentProcessorError && err.code === 'payment_intent_unexpected_state')
        return refused(409, unexpectedStateError);
      logger.error(
        { err, paymentId, quoteId: payment.quoteId, keyId: payer.keyId },
        'embed payment could not be confirmed',
      );
      return refused(400, EMBED_PAYMENT_CONFIRM_FAILED);
    }
    logger.info(
      { paymentId, quoteId: payment.quoteId, status: result.status, failureCode: result.failureCode },
      'embed payment confirmed',
    );
    return {
      kind: 'ok',
      body: {
        paymentId: payment.processorPaymentId,
        status: result.status,
        quoteId: payment.quoteId,
        planId: payment.planId,
        amountCents: payment.amountCents,
        currency: payment.currency,
        ...(result.failureCode ? { failureCode: result.failureCode } : {}),
        ...(result.declineCode ? { declineCode: result.declineCode } : {}),
        ...(result.failureMessage ? { failureMessage: result.failureMessage } : {}),
        ...(await issuedPolicy(outcome, payment.processorPaymentId)),
      },
    };
  }

  /**
   * The policy this very call bought (its payment is the purchase's): number, token and certificate link for the
   * iframe's buyer. Nothing when the policy is not (yet) issued, when another payment bought the quote, or without
   * quote-api's URL.
   */
  async function issuedPolicy(outcome: FulfillmentOutcome | undefined, processorPaymentId: string) {
    if (!deps.quoteApiUrl || !outcome) return {};
    let policy: { policyNumber: string } | null = null;
    if (outcome.kind === 'policy_issued') policy = outcome;
    else if (outcome.kind === 'already_recorded' && outcome.purchase.processorPaymentId === processorPaymentId) {
      policy = await prisma.policy.findUnique({
        where: { purchaseId: outcome.purchase.id },
        select: { policyNumber: true },
      });
    }
    if (!policy) return {};
    const accessToken = deps.policyTokens.tokenFor(policy);
    return {
      policyNumber: policy.policyNumber,
      accessToken,
      documentUrl: policyLinks(deps.quoteApiUrl, { policyNumber: policy.policyNumber, accessToken }).documentUrl,
    };
  }

  return { start, confirm, authenticate, provider: processor.name };
}

export type EmbedPaymentService = ReturnType<typeof createEmbedPaymentService>;
