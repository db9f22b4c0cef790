/**
 * Tier 3: checkout inside the iframe (a lazy chunk: the first render never pays for it). Simulated processor: our
 * card form → POST /api/embed/payments → /confirm (→ /authenticate for a 3-D Secure test card). Stripe: the Payment
 * Element with the intent's clientSecret, confirmed in the iframe with `redirect: 'if_required'`. Either way:
 * `payment.succeeded` or `payment.failed`, and the form stays usable after a failure.
 */
import type { EmbedOption, EmbedPaymentConfirmResult, EmbedPaymentStartResult } from '@expedition/contracts';
import type { WidgetBootData } from '@expedition/contracts/widget-boot';
import { formatMoney } from '@expedition/contracts/rules';
import { Alert, Field } from '@expedition/ui';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { WidgetMessages } from '@expedition/i18n/widget';
import { EmbedError, type EmbedClient } from '../api';
import { explainError } from './errors';
import { cardDigits, validateCard, type CardErrors, type CardValues } from '../card';
import { TEST_CARDS } from '../sandbox';
import { rich, useTexts } from '../texts';
import { slot } from '@expedition/i18n';
import { loadStripe, stripeOutcome, type StripeElements, type StripeLike } from '../stripe';
import type { Emit } from './emit';

export interface CheckoutProps {
  api: EmbedClient;
  boot: WidgetBootData;
  quoteId: string;
  quoteNumber: string;
  option: EmbedOption;
  email: string;
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

const toEmbedError = (e: unknown) =>
  e instanceof EmbedError ? e : new EmbedError('network', 'Something went wrong. Please try again.');

export function Checkout({ api, boot, quoteId, quoteNumber, option, email, emit, onClose, onPaid }: CheckoutProps) {
  const { t, lang, intl: locale } = useTexts();
  const c = t.checkout;
  const [phase, setPhase] = useState<Phase>({ name: 'starting' });
  const [payment, setPayment] = useState<EmbedPaymentStartResult>();
  const [card, setCard] = useState<CardValues>({ number: '', expiry: '', cvc: '' });
  const [cardErrors, setCardErrors] = useState<CardErrors>({});
  const [failure, setFailure] = useState<string>();
  const stripeRef = useRef<{ stripe: StripeLike; elements: StripeElements } | undefined>(undefined);
  const stripeHost = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);

  const amount = formatMoney(
    payment?.amountCents ?? option.checkout.amountCents,
    payment?.currency ?? option.checkout.currency,
    locale,
  );

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
            // Stripe's own texts (card fields, its errors) in the widget's language too.
            const elements = stripe.elements({
              clientSecret: started.clientSecret,
              locale: lang === 'en-XA' ? 'en' : lang,
            });
            stripeRef.current = { stripe, elements };
          } catch {
            if (cancelled) return;
            blocked(
              'network',
              'The secure payment form could not be loaded. Check your connection and try again.',
              c.stripeUnavailable(),
            );
            return;
          }
        }
        if (!cancelled) setPhase({ name: 'card' });
      },
      (e: unknown) => {
        if (cancelled) return;
        const error = toEmbedError(e);
        blocked(error.code, error.message, explain(error));
      },
    );
    return () => {
      cancelled = true;
    };
  }, [quoteId, option.planId]);

  // The Payment Element mounts once its host is on screen.
  useEffect(() => {
    if (phase.name !== 'card' || !stripeRef.current || !stripeHost.current || stripeHost.current.childElementCount)
      return;
    stripeRef.current.elements.create('payment', { layout: 'tabs' }).mount(stripeHost.current);
  }, [phase.name]);

  /** The page's `payment.failed` carries the code and the English message; the traveler reads `shown`. */
  function blocked(code: string, message: string, shown = message) {
    setPhase({ name: 'blocked', message: shown });
    emit('payment.failed', { code, message });
  }

  function explain(error: EmbedError): string {
    return explainError(error, t, lang);
  }

  function failed(code: string, message: string, shown = message) {
    setFailure(shown);
    setPhase({ name: 'card' });
    emit('payment.failed', { code, message });
  }

  /** A refusal in the widget's language: by decline code; the processor's own words in English. */
  function refusal(code: string, message: string): string {
    if (code === 'insufficient_funds') return c.insufficientFunds();
    if (lang === 'en') return message;
    return code === 'payment_failed' ? c.notCompleted() : c.declined();
  }

  function handle(result: EmbedPaymentConfirmResult) {
    if (result.status === 'succeeded') {
      setPhase({
        name: 'done',
        amountCents: result.amountCents,
        currency: result.currency,
        policyNumber: result.policyNumber,
        documentUrl: result.documentUrl,
      });
      emit('payment.succeeded', {
        quoteId: result.quoteId,
        planId: result.planId,
        premiumCents: result.amountCents,
        currency: result.currency,
      });
      onPaid();
    } else if (result.status === 'requires_action') {
      setPhase({ name: 'authenticate' });
    } else if (result.status === 'processing' || result.status === 'pending') {
      setPhase({ name: 'processing' });
    } else {
      const code = result.declineCode ?? result.failureCode ?? 'payment_failed';
      const message = result.failureMessage ?? 'The payment was declined. Try another card.';
      failed(code, message, refusal(code, message));
    }
  }

  async function run(step: () => Promise<EmbedPaymentConfirmResult>) {
    setFailure(undefined);
    setPhase({ name: 'paying' });
    try {
      handle(await step());
    } catch (e) {
      const error = toEmbedError(e);
      if (error.code === 'already_purchased' || error.code === 'payment_in_progress')
        blocked(error.code, error.message, explain(error));
      else failed(error.code, error.message, explain(error));
    }
  }

  async function paySimulated() {
    const errors = validateCard(card, t.validation);
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
      await s.stripe.confirmPayment({
        elements: s.elements,
        redirect: 'if_required',
        confirmParams: { return_url: window.location.href, ...(email ? { receipt_email: email } : {}) },
      }),
    );
    if (outcome.kind === 'succeeded') {
      const amountCents = outcome.amountCents ?? payment.amountCents;
      setPhase({ name: 'done', amountCents, currency: payment.currency });
      emit('payment.succeeded', {
        quoteId,
        planId: option.planId,
        premiumCents: amountCents,
        currency: payment.currency,
      });
      onPaid();
    } else if (outcome.kind === 'processing') setPhase({ name: 'processing' });
    else failed(outcome.code, outcome.message, refusal(outcome.code, outcome.message));
  }

  const testMode = (payment?.mode ?? boot.mode) === 'test';
  const busy = phase.name === 'paying';

  return (
    <section class="svc-checkout svc-card" aria-labelledby="svc-checkout-title">
      <h2 id="svc-checkout-title" class="svc-checkout__title" tabIndex={-1} ref={headingRef}>
        {phase.name === 'done' ? c.covered() : c.payFor({ plan: option.name })}
      </h2>
      {phase.name === 'starting' ? (
        <p class="svc-checkout__loading" role="status">
          {t.page.preparingCheckout()}
        </p>
      ) : null}
      {phase.name === 'blocked' ? (
        <>
          <Alert tone="warning">{phase.message}</Alert>
          <div class="svc-checkout__actions">
            <button type="button" class="svc-btn svc-btn--secondary" onClick={onClose}>
              {c.back()}
            </button>
          </div>
        </>
      ) : null}
      {phase.name === 'done' ? (
        <div class="svc-confirmation" role="status">
          <p>
            {rich(c.received({ amount: slot(0), plan: slot(1), quoteNumber }), [
              <strong key="a">{formatMoney(phase.amountCents, phase.currency, locale)}</strong>,
              <strong key="p">{option.name}</strong>,
            ])}
          </p>
          {phase.policyNumber ? (
            <p>
              {rich(c.policyNumberIs({ policyNumber: slot(0) }), [
                <strong key="n" class="svc-policy-number">
                  {phase.policyNumber}
                </strong>,
              ])}{' '}
              {mailSentence(email, c)}
            </p>
          ) : (
            <p>
              {c.beingIssued()} {mailSentence(email, c)}
            </p>
          )}
          {phase.documentUrl ? (
            <p>
              <a class="svc-certificate" href={phase.documentUrl} target="_blank" rel="noopener noreferrer">
                {c.downloadCertificate()}
              </a>
            </p>
          ) : null}
          {testMode ? <p class="svc-specimen-note">{c.testPolicy()}</p> : null}
        </div>
      ) : null}
      {phase.name === 'processing' ? <Alert tone="info">{c.processing()}</Alert> : null}
      {phase.name === 'authenticate' ? (
        <div class="svc-authenticate">
          <Alert tone="info" title={c.authTitle()}>
            {c.authBody({ amount })}
          </Alert>
          <div class="svc-checkout__actions">
            <button
              type="button"
              class="svc-btn"
              onClick={() =>
                payment && run(() => api.authenticatePayment({ paymentId: payment.paymentId, approve: true }))
              }
            >
              {c.approve()}
            </button>
            <button
              type="button"
              class="svc-btn svc-btn--secondary"
              onClick={() =>
                payment && run(() => api.authenticatePayment({ paymentId: payment.paymentId, approve: false }))
              }
            >
              {c.decline()}
            </button>
          </div>
        </div>
      ) : null}
      {phase.name === 'card' || phase.name === 'paying' ? (
        <form
          class="svc-card-form"
          noValidate
          aria-label={c.formLabel()}
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
              <Field id="svc-card-number" label={c.cardNumber()} error={cardErrors.number} class="svc-span-2">
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
              <Field id="svc-card-expiry" label={c.expiry()} error={cardErrors.expiry}>
                {(aria) => (
                  <input
                    {...aria}
                    type="text"
                    inputMode="numeric"
                    autoComplete="cc-exp"
                    placeholder="MM/YY"
                    value={card.expiry}
                    onInput={(e) => setCard({ ...card, expiry: e.currentTarget.value })}
                  />
                )}
              </Field>
              <Field id="svc-card-cvc" label={c.securityCode()} error={cardErrors.cvc}>
                {(aria) => (
                  <input
                    {...aria}
                    type="text"
                    inputMode="numeric"
                    autoComplete="cc-csc"
                    placeholder="CVC"
                    value={card.cvc}
                    onInput={(e) => setCard({ ...card, cvc: e.currentTarget.value })}
                  />
                )}
              </Field>
            </div>
          )}
          {testMode && payment?.provider !== 'stripe' ? (
            <p class="svc-test-cards">
              {c.testCards()}{' '}
              {TEST_CARDS.map((card, i) => (
                <span key={card.number}>
                  {rich(c[card.outcome]({ card: slot(0) }), [<code key="c">{card.number}</code>])}
                  {i < TEST_CARDS.length - 1 ? '; ' : '.'}
                </span>
              ))}
            </p>
          ) : null}
          <div class="svc-checkout__actions">
            <button type="submit" class="svc-btn" disabled={busy} aria-busy={busy ? 'true' : undefined}>
              {busy ? c.paying() : c.pay({ amount })}
            </button>
            <button type="button" class="svc-btn svc-btn--secondary" disabled={busy} onClick={onClose}>
              {c.back()}
            </button>
          </div>
        </form>
      ) : null}
    </section>
  );
}

/** What the success view says of the confirmation e-mail: the platform sends one to the quote's address. */
export function mailSentence(email: string, c: WidgetMessages['checkout']): string {
  return email ? c.mailOnItsWay({ email }) : c.noMail();
}
