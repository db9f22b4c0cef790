/**
 * Tier 3: checkout inside the iframe (a lazy chunk: the first render never pays for it). Simulated processor: our
 * card form → POST /api/embed/payments → /confirm (→ /authenticate for a 3-D Secure test card). Stripe: the Payment
 * Element with the intent's clientSecret, confirmed in the iframe with `redirect: 'if_required'`. Either way:
 * `payment.succeeded` or `payment.failed`, and the form stays usable after a failure.
 */
import type { EmbedOption, EmbedPaymentConfirmResult, EmbedPaymentStartResult } from '@expedition/contracts';
import type { WidgetBootData } from '@expedition/contracts/widget-boot';
import { Alert, Field, formatMoney } from '@expedition/ui';
import { useEffect, useRef, useState } from 'preact/hooks';
import { EmbedError, type EmbedClient } from '../api';
import { cardDigits, validateCard, type CardErrors, type CardValues } from '../card';
import { TEST_CARDS } from '../sandbox';
import { loadStripe, stripeOutcome, type StripeElements, type StripeLike } from '../stripe';
import type { Emit } from './emit';

export interface CheckoutProps {
  api: EmbedClient;
  boot: WidgetBootData;
  quoteId: string;
  quoteNumber: string;
  option: EmbedOption;
  email: string;
  locale?: string;
  emit: Emit;
  onClose: () => void;
  onPaid: () => void;
}

type Phase =
  | { name: 'starting' }
  | { name: 'blocked'; message: string }
  | { name: 'card' }
  | { name: 'paying' }
  | { name: 'authenticate' }
  | { name: 'processing' }
  | { name: 'done'; amountCents: number; currency: string; policyNumber?: string; documentUrl?: string };

const toEmbedError = (e: unknown) => (e instanceof EmbedError ? e : new EmbedError('network', 'Something went wrong. Please try again.'));

export function Checkout({ api, boot, quoteId, quoteNumber, option, email, locale, emit, onClose, onPaid }: CheckoutProps) {
  const [phase, setPhase] = useState<Phase>({ name: 'starting' });
  const [payment, setPayment] = useState<EmbedPaymentStartResult>();
  const [card, setCard] = useState<CardValues>({ number: '', expiry: '', cvc: '' });
  const [cardErrors, setCardErrors] = useState<CardErrors>({});
  const [failure, setFailure] = useState<string>();
  const stripeRef = useRef<{ stripe: StripeLike; elements: StripeElements } | undefined>(undefined);
  const stripeHost = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const amount = formatMoney(payment?.amountCents ?? option.checkout.amountCents, payment?.currency ?? option.checkout.currency, locale);

  useEffect(() => {
    headingRef.current?.focus();
    let cancelled = false;
    api.startPayment({ quoteId, planId: option.planId }).then(
      async (started) => {
        if (cancelled) return;
        setPayment(started);
        if (started.provider === 'stripe') {
          try {
            const key = started.stripePublishableKey ?? boot.payments.stripePublishableKey;
            if (!key) throw new Error('no Stripe key');
            const stripe = await loadStripe(key);
            const elements = stripe.elements({ clientSecret: started.clientSecret, ...(locale ? { locale } : {}) });
            stripeRef.current = { stripe, elements };
          } catch {
            if (cancelled) return;
            blocked('network', 'The secure payment form could not be loaded. Check your connection and try again.');
            return;
          }
        }
        if (!cancelled) setPhase({ name: 'card' });
      },
      (e: unknown) => {
        if (cancelled) return;
        const error = toEmbedError(e);
        blocked(error.code, explain(error));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [quoteId, option.planId]);

  // The Payment Element mounts once its host is on screen.
  useEffect(() => {
    if (phase.name !== 'card' || !stripeRef.current || !stripeHost.current || stripeHost.current.childElementCount) return;
    stripeRef.current.elements.create('payment', { layout: 'tabs' }).mount(stripeHost.current);
  }, [phase.name]);

  function blocked(code: string, message: string) {
    setPhase({ name: 'blocked', message });
    emit('payment.failed', { code, message });
  }

  function explain(error: EmbedError): string {
    if (error.code === 'already_purchased') return 'This trip is already insured with this quote. Check your e-mail for the policy.';
    if (error.code === 'payment_in_progress') return 'A payment for this quote is already in progress. Wait a moment, then try again.';
    return error.message;
  }

  function failed(code: string, message: string) {
    setFailure(message);
    setPhase({ name: 'card' });
    emit('payment.failed', { code, message });
  }

  function handle(result: EmbedPaymentConfirmResult) {
    if (result.status === 'succeeded') {
      setPhase({ name: 'done', amountCents: result.amountCents, currency: result.currency, policyNumber: result.policyNumber, documentUrl: result.documentUrl });
      emit('payment.succeeded', { quoteId: result.quoteId, planId: result.planId, premiumCents: result.amountCents, currency: result.currency });
      onPaid();
    } else if (result.status === 'requires_action') {
      setPhase({ name: 'authenticate' });
    } else if (result.status === 'processing' || result.status === 'pending') {
      setPhase({ name: 'processing' });
    } else {
      failed(result.declineCode ?? result.failureCode ?? 'payment_failed', result.failureMessage ?? 'The payment was declined. Try another card.');
    }
  }

  async function run(step: () => Promise<EmbedPaymentConfirmResult>) {
    setFailure(undefined);
    setPhase({ name: 'paying' });
    try {
      handle(await step());
    } catch (e) {
      const error = toEmbedError(e);
      if (error.code === 'already_purchased' || error.code === 'payment_in_progress') blocked(error.code, explain(error));
      else failed(error.code, explain(error));
    }
  }

  async function paySimulated() {
    const errors = validateCard(card);
    setCardErrors(errors);
    if (Object.keys(errors).length || !payment) return;
    await run(() => api.confirmPayment({ paymentId: payment.paymentId, paymentMethod: cardDigits(card.number) }));
  }

  async function payStripe() {
    const s = stripeRef.current;
    if (!s || !payment) return;
    setFailure(undefined);
    setPhase({ name: 'paying' });
    const outcome = stripeOutcome(
      await s.stripe.confirmPayment({ elements: s.elements, redirect: 'if_required', confirmParams: { return_url: window.location.href, ...(email ? { receipt_email: email } : {}) } }),
    );
    if (outcome.kind === 'succeeded') {
      const amountCents = outcome.amountCents ?? payment.amountCents;
      setPhase({ name: 'done', amountCents, currency: payment.currency });
      emit('payment.succeeded', { quoteId, planId: option.planId, premiumCents: amountCents, currency: payment.currency });
      onPaid();
    } else if (outcome.kind === 'processing') setPhase({ name: 'processing' });
    else failed(outcome.code, outcome.message);
  }

  const testMode = (payment?.mode ?? boot.mode) === 'test';
  const busy = phase.name === 'paying';

  return (
    <section class="svc-checkout svc-card" aria-labelledby="svc-checkout-title">
      <h2 id="svc-checkout-title" class="svc-checkout__title" tabIndex={-1} ref={headingRef}>
        {phase.name === 'done' ? 'You are covered' : `Pay for ${option.name}`}
      </h2>
      {phase.name === 'starting' ? (
        <p class="svc-checkout__loading" role="status">
          Preparing secure checkout…
        </p>
      ) : null}
      {phase.name === 'blocked' ? (
        <>
          <Alert tone="warning">{phase.message}</Alert>
          <div class="svc-checkout__actions">
            <button type="button" class="svc-btn svc-btn--secondary" onClick={onClose}>
              Back to plans
            </button>
          </div>
        </>
      ) : null}
      {phase.name === 'done' ? (
        <div class="svc-confirmation" role="status">
          <p>
            Payment of <strong>{formatMoney(phase.amountCents, phase.currency, locale)}</strong> received for <strong>{option.name}</strong> (quote {quoteNumber}).
          </p>
          {phase.policyNumber ? (
            <p>
              Your policy number is <strong class="svc-policy-number">{phase.policyNumber}</strong>. {mailSentence(email)}
            </p>
          ) : (
            <p>Your policy is being issued. {mailSentence(email)}</p>
          )}
          {phase.documentUrl ? (
            <p>
              <a class="svc-certificate" href={phase.documentUrl} target="_blank" rel="noopener noreferrer">
                Download your certificate (PDF)
              </a>
            </p>
          ) : null}
        </div>
      ) : null}
      {phase.name === 'processing' ? (
        <Alert tone="info">Your payment is processing. We e-mail your policy as soon as it is confirmed.</Alert>
      ) : null}
      {phase.name === 'authenticate' ? (
        <div class="svc-authenticate">
          <Alert tone="info" title="Authenticate this payment (test)">
            Your bank asks you to confirm this payment of {amount}. In test mode you choose the answer.
          </Alert>
          <div class="svc-checkout__actions">
            <button type="button" class="svc-btn" onClick={() => payment && run(() => api.authenticatePayment({ paymentId: payment.paymentId, approve: true }))}>
              Approve payment
            </button>
            <button type="button" class="svc-btn svc-btn--secondary" onClick={() => payment && run(() => api.authenticatePayment({ paymentId: payment.paymentId, approve: false }))}>
              Decline
            </button>
          </div>
        </div>
      ) : null}
      {phase.name === 'card' || phase.name === 'paying' ? (
        <form
          class="svc-card-form"
          noValidate
          aria-label="Card payment"
          onSubmit={(e) => {
            e.preventDefault();
            if (busy) return;
            void (payment?.provider === 'stripe' ? payStripe() : paySimulated());
          }}
        >
          {failure ? <Alert tone="danger">{failure}</Alert> : null}
          {payment?.provider === 'stripe' ? (
            <div ref={stripeHost} class="svc-stripe-element" />
          ) : (
            <div class="svc-card-form__fields">
              <Field id="svc-card-number" label="Card number" error={cardErrors.number} class="svc-span-2">
                {(aria) => (
                  <input
                    {...aria}
                    type="text"
                    inputMode="numeric"
                    autoComplete="cc-number"
                    placeholder="1234 1234 1234 1234"
                    value={card.number}
                    onInput={(e) => setCard({ ...card, number: e.currentTarget.value })}
                  />
                )}
              </Field>
              <Field id="svc-card-expiry" label="Expiry (MM/YY)" error={cardErrors.expiry}>
                {(aria) => (
                  <input {...aria} type="text" inputMode="numeric" autoComplete="cc-exp" placeholder="MM/YY" value={card.expiry} onInput={(e) => setCard({ ...card, expiry: e.currentTarget.value })} />
                )}
              </Field>
              <Field id="svc-card-cvc" label="Security code" error={cardErrors.cvc}>
                {(aria) => (
                  <input {...aria} type="text" inputMode="numeric" autoComplete="cc-csc" placeholder="CVC" value={card.cvc} onInput={(e) => setCard({ ...card, cvc: e.currentTarget.value })} />
                )}
              </Field>
            </div>
          )}
          {testMode && payment?.provider !== 'stripe' ? (
            <p class="svc-test-cards">
              <strong>Test mode:</strong> no real money moves. Any future expiry and any 3 digits.{' '}
              {TEST_CARDS.map((c, i) => (
                <span key={c.number}>
                  <code>{c.number}</code> {c.outcome}
                  {i < TEST_CARDS.length - 1 ? '; ' : '.'}
                </span>
              ))}
            </p>
          ) : null}
          <div class="svc-checkout__actions">
            <button type="submit" class="svc-btn" disabled={busy} aria-busy={busy ? 'true' : undefined}>
              {busy ? 'Paying…' : `Pay ${amount}`}
            </button>
            <button type="button" class="svc-btn svc-btn--secondary" disabled={busy} onClick={onClose}>
              Back to plans
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}

/** What the success view says of the confirmation e-mail: the platform sends one to the quote's address. */
export function mailSentence(email: string): string {
  return email
    ? `A confirmation e-mail with your certificate attached is on its way to ${email}.`
    : 'No e-mail address was given, so no e-mail is sent: download your certificate below.';
}
