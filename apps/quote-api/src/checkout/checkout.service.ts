import { timingSafeEqual } from 'node:crypto';
import type { CheckoutRequest, Mode } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import type { MoneyPath } from '@expedition/fulfillment';
import { AppError } from '@expedition/http-kit';
import { PaymentProcessorError, type PaymentProcessor, type SimulatedProcessor } from '@expedition/payments';
import { hashToken, isUuid, type Clock } from '@expedition/platform';
import { createCheckoutLinks, loadQuoteForCheckout } from '@expedition/quoting';
import { rethrowQuotingError } from '../quoting-errors';
import { createCheckoutIdempotency } from './checkout-idempotency';

export interface CheckoutServiceDeps {
  prisma: PrismaClient;
  clock: Clock;
  publicUrl: string;
  /** Takes the payment behind the link; absent means the page only shows the summary. */
  payments?: { processor: PaymentProcessor; moneyPath: Pick<MoneyPath, 'guard' | 'fulfillment'> };
}

/**
 * Why a payment on the page did not go through: the page says it in the traveler's language
 * (libs/i18n checkout `errors.<reason>`); `message` is the English, for logs and tests.
 */
export type PayFailure =
  | 'busy'
  | 'authentication'
  | 'declined'
  | 'insufficientFunds'
  | 'testModeLiveCard'
  | 'liveModeTestCard'
  | 'processingError'
  | 'failed';
export type PayUnavailable = 'unavailable' | 'closed' | 'notEnabled' | 'notPayableLive' | 'notPayableTest';

const BUSY = {
  outcome: 'failed',
  reason: 'busy',
  message: 'A payment for this trip is already being processed. Wait a moment, then reload this page.',
} as const;

/** The processor takes no payments in this quote's mode (the simulated processor and a live quote). */
const notPayableHere = (mode: Mode): PayResult => ({
  outcome: 'unavailable',
  reason: mode === 'live' ? 'notPayableLive' : 'notPayableTest',
  message: `This payment cannot be taken here: this checkout is not set up for ${mode === 'live' ? 'real (live)' : 'test'} payments. Nothing was charged.`,
});

export type PayResult =
  | { outcome: 'paid' }
  | { outcome: 'failed'; reason: PayFailure; message: string }
  | { outcome: 'unavailable'; reason: PayUnavailable; message: string };

/** The processor's refusal as one of our reasons (Stripe's codes; the simulated processor uses the same). */
function failureReason(confirmed: { failureCode?: string; declineCode?: string }): PayFailure {
  if (confirmed.declineCode === 'insufficient_funds') return 'insufficientFunds';
  if (confirmed.declineCode === 'test_mode_live_card') return 'testModeLiveCard';
  if (confirmed.declineCode === 'live_mode_test_card') return 'liveModeTestCard';
  if (confirmed.failureCode === 'processing_error') return 'processingError';
  if (confirmed.failureCode === 'card_declined') return 'declined';
  return 'failed';
}

function sameSecret(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * This page cannot show a 3-D Secure step. Left in requires_action, the link's one PaymentIntent would refuse every
 * other card (the processor only confirms an intent that requires a payment method), so the link could never be
 * paid. Where the processor lets us answer the authentication (simulated mode), fail it, as a cardholder who
 * abandons 3-D Secure would; the intent then takes another card.
 */
async function abandonAuthentication(processor: PaymentProcessor, paymentId: string, mode: Mode) {
  const simulated = processor as Partial<Pick<SimulatedProcessor, 'completeAction'>>;
  if (processor.name === 'simulated' && typeof simulated.completeAction === 'function') {
    await simulated.completeAction({ paymentId, mode, approve: false });
  }
}

export function createCheckoutService(deps: CheckoutServiceDeps) {
  const links = createCheckoutLinks({ prisma: deps.prisma, clock: deps.clock, publicUrl: deps.publicUrl });
  const idempotency = createCheckoutIdempotency({ prisma: deps.prisma, clock: deps.clock });

  /** Validates quote and session; the shared checkout-link lib checks the plan and opens the 30-minute session. */
  async function open(req: CheckoutRequest) {
    const quote = isUuid(req.quoteId) ? await loadQuoteForCheckout(deps.prisma, req.quoteId) : null;
    if (!quote) throw AppError.notFound('quote_not_found', `No quote with id "${req.quoteId}"`);
    if (!sameSecret(quote.sessionIdHash, hashToken(req.sessionId))) {
      throw new AppError(403, 'session_mismatch', 'sessionId does not belong to this quote');
    }
    return links.open(quote, req).catch(rethrowQuotingError);
  }

  /** `open` under an `Idempotency-Key`: the same key and body answer the same link while it works. */
  async function openOnce(req: CheckoutRequest, idempotencyKey: string | undefined) {
    if (idempotencyKey === undefined) return { link: await open(req), replayed: false };
    return idempotency.run(idempotencyKey, req, () => open(req));
  }

  /** What the checkout page shows for a token: unknown, expired, paid, or open with the time left. */
  async function view(token: string) {
    if (!/^cs_[A-Za-z0-9_-]{20,80}$/.test(token)) return { state: 'unknown' as const };
    const session = await deps.prisma.checkoutSession.findUnique({
      where: { tokenHash: hashToken(token) },
      include: {
        quote: {
          include: {
            purchase: { select: { id: true, payment: { select: { checkoutSessionId: true } } } },
            // The page shows whose page it is (libs/operators: the operator's display name).
            operator: { select: { name: true, brandColor: true, logoUrl: true } },
          },
        },
        plan: true,
      },
    });
    if (!session) return { state: 'unknown' as const };
    // Paid through this link, or the quote was bought another way (another link, machine payment).
    if (session.status === 'paid' || session.quote.purchase) return { state: 'paid' as const, session };
    const msLeft = session.expiresAt.getTime() - deps.clock.now().getTime();
    if (session.status === 'expired' || msLeft <= 0) return { state: 'expired' as const, session };
    return { state: 'open' as const, session, msLeft };
  }

  /**
   * The link's one PaymentIntent (its idempotency key is the session id), recorded as ours before anyone can pay it:
   * the dispatcher trusts a processor event only for a payment we stored.
   */
  async function startPayment(session: OpenSession) {
    const { quote } = session;
    const { processor } = deps.payments!;
    const created = await processor.createPayment({
      amountCents: session.premiumCents,
      currency: session.currency.toLowerCase(),
      mode: quote.mode,
      idempotencyKey: `checkout_${session.id}`,
      metadata: {
        quoteId: quote.id,
        planId: session.planId,
        channel: 'checkout_link',
        checkoutSessionId: session.id,
        ...(quote.operatorId ? { operatorId: quote.operatorId } : {}),
      },
    });
    await deps.prisma.payment.createMany({
      data: [
        {
          quoteId: quote.id,
          planId: session.planId,
          operatorId: quote.operatorId,
          mode: quote.mode,
          channel: 'checkout_link',
          processor: processor.name,
          processorPaymentId: created.paymentId,
          amountCents: session.premiumCents,
          currency: session.currency.toUpperCase(),
          checkoutSessionId: session.id,
          status: 'pending',
        },
      ],
      skipDuplicates: true,
    });
    return created;
  }

  /**
   * For the processor's own payment UI (Stripe's Payment Element): the client secret of the link's PaymentIntent.
   * The browser confirms it with Stripe; Stripe's `payment_intent.succeeded` webhook reaches the dispatcher, which
   * issues the policy and marks the link paid. (A browser-confirmed payment cannot hold the quote's claim: if another
   * channel paid meanwhile, the dispatcher refunds the second charge automatically.)
   */
  async function hostedPayment(token: string): Promise<{ clientSecret: string; mode: Mode } | null> {
    const current = await view(token);
    if (current.state !== 'open' || !deps.payments) return null;
    const created = await startPayment(current.session);
    return { clientSecret: created.clientSecret, mode: current.session.quote.mode };
  }

  /**
   * The address the payer typed (asked only when none is known), stored on the link before the charge, so the
   * statement that issues the policy (here, or the dispatcher on the processor's event) queues its confirmation e-mail
   * to it. An address given before is never replaced.
   */
  async function storeEmail(session: OpenSession, email: string): Promise<void> {
    if (session.email || session.quote.email) return;
    await deps.prisma.checkoutSession.updateMany({ where: { id: session.id, email: null }, data: { email } });
  }

  /**
   * Stripe mode: the page stores the typed address here before Stripe's Payment Element confirms the payment in the
   * browser (the payment never passes through us). Answers the link's state; only an open link takes an address.
   */
  async function rememberEmail(token: string, email: string): Promise<'stored' | 'unknown' | 'expired' | 'paid'> {
    const current = await view(token);
    if (current.state !== 'open') return current.state;
    await storeEmail(current.session, email);
    return 'stored';
  }

  /**
   * Pays an open link with a card (simulated mode: the processor's magic test cards), under the quote's payment
   * claim: a second tab, another link of the same quote, or a machine payment at the same moment is refused before
   * the processor is called. A declined card leaves the link open for another try. `email`: the optional address the
   * page asked for.
   */
  async function pay(token: string, paymentMethod: string, email?: string): Promise<PayResult> {
    const current = await view(token);
    if (current.state !== 'open')
      return current.state === 'paid'
        ? { outcome: 'paid' }
        : { outcome: 'unavailable', reason: 'closed', message: 'This link can no longer be paid.' };
    if (!deps.payments)
      return { outcome: 'unavailable', reason: 'notEnabled', message: 'Online payment is not enabled.' };
    const { session } = current;
    const { processor, moneyPath } = deps.payments;
    const { quote } = session;
    if (email) await storeEmail(session, email);
    try {
      const guarded = await moneyPath.guard.run(quote.id, 'checkout_link', async (claim) => {
        const created = await startPayment(session);
        if (!(await claim.name(created.paymentId))) return { end: 'none', value: BUSY };
        const confirmed = await processor.confirmPayment({
          paymentId: created.paymentId,
          mode: quote.mode,
          paymentMethod,
          idempotencyKey: claim.key,
        });
        if (confirmed.status === 'succeeded') {
          await moneyPath.fulfillment.recordSucceededPayment({
            paymentId: confirmed.paymentId,
            amountCents: session.premiumCents,
            currency: session.currency,
            mode: quote.mode,
            quoteId: quote.id,
            planId: session.planId,
            channel: 'checkout_link',
            checkoutSessionId: session.id,
          });
          return { end: 'charged', value: { outcome: 'paid' } as PayResult };
        }
        if (confirmed.status === 'requires_action') {
          await abandonAuthentication(processor, confirmed.paymentId, quote.mode);
          return {
            end: 'none',
            value: {
              outcome: 'failed',
              reason: 'authentication',
              message:
                'Your bank asks for extra authentication (3-D Secure), which this test checkout cannot show. Use another card.',
            } as PayResult,
          };
        }
        if (confirmed.status === 'processing') return { end: 'unknown', value: BUSY };
        return {
          end: 'none',
          value: {
            outcome: 'failed',
            reason: failureReason(confirmed),
            message: confirmed.failureMessage ?? 'The payment did not go through. Try another card.',
          } as PayResult,
        };
      });
      if (guarded.kind === 'paid') return { outcome: 'paid' };
      if (guarded.kind === 'busy') return BUSY;
      return guarded.value;
    } catch (err) {
      if (err instanceof PaymentProcessorError && err.code === 'payment_intent_unexpected_state') {
        // The intent already succeeded (another tab): the link is paid once the processor event lands.
        return (await view(token)).state === 'paid' ? { outcome: 'paid' } : BUSY;
      }
      // A processor that takes no payments in the quote's mode (the simulated one and a live quote): retrying cannot
      // help, so the page says what is true rather than "try again".
      if (err instanceof PaymentProcessorError && err.code === 'mode_not_configured') return notPayableHere(quote.mode);
      if (err instanceof PaymentProcessorError)
        return {
          outcome: 'unavailable',
          reason: 'unavailable',
          message: 'The payment service is unavailable. Try again in a minute.',
        };
      throw err;
    }
  }

  return { open, openOnce, view, pay, hostedPayment, rememberEmail };
}

export type CheckoutService = ReturnType<typeof createCheckoutService>;
type OpenSession = Extract<Awaited<ReturnType<CheckoutService['view']>>, { state: 'open' }>['session'];
