/**
 * The widget UI: the quote form, the options (polled), the plan cards and what buying means at the effective tier.
 * Shared by the iframe (events to the page through `emit`) and the hosted Tier 1 page (`emit` does nothing).
 */
import type { EmbedOption, EmbedOptionsReady, EmbedQuoteResult } from '@expedition/contracts';
import type { WidgetBootData } from '@expedition/contracts/widget-boot';
import type { FrameConfig } from '@expedition/contracts/widget-protocol';
import { Alert } from '@expedition/ui';
import type { ComponentType } from 'preact';
import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { createEmbedClient, EmbedError } from '../api';
import { sortOptions } from '../options';
import { pollOptions } from '../polling';
import { SANDBOX } from '../sandbox';
import { buyMode as buyModeOf, effectiveTier } from '../tier';
import { applyPrefill, emptyValues, localToday, toQuoteBody, validate, type FormErrors, type FormValues } from '../validation';
import type { CheckoutProps } from './checkout';
import type { Emit } from './emit';
import { PlanCards, PlanSkeletons } from './plan-cards';
import { QuoteForm } from './quote-form';

export interface AppProps {
  boot: WidgetBootData;
  config: FrameConfig;
  locale?: string;
  emit: Emit;
}

type Status = 'idle' | 'quoting' | 'polling' | 'ready' | 'manual' | 'failed';
type Notice = { tone: 'danger' | 'warning' | 'info' | 'success'; title?: string; message: string };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function loadCheckout(): Promise<ComponentType<CheckoutProps>> {
  return import('./checkout').then((m) => m.Checkout);
}

export function App({ boot, config, locale, emit }: AppProps) {
  const api = useMemo(() => createEmbedClient({ embedUrl: boot.embedUrl, publishableKey: boot.publishableKey }), [boot]);
  const tier = effectiveTier(config.tier, boot.allowedTier);
  const buyMode = buyModeOf(boot.kind, tier);

  const [values, setValues] = useState<FormValues>(() => applyPrefill(emptyValues(), config.prefill, localToday()));
  const [errors, setErrors] = useState<FormErrors>({});
  const [validated, setValidated] = useState(false);
  const [status, setStatus] = useState<Status>('idle');
  const [notice, setNotice] = useState<Notice>();
  const [quote, setQuote] = useState<EmbedQuoteResult>();
  const [ready, setReady] = useState<EmbedOptionsReady>();
  const [travelers, setTravelers] = useState(1);
  const [selected, setSelected] = useState<string>();
  const [buying, setBuying] = useState<string>();
  const [checkoutLink, setCheckoutLink] = useState<string>();
  const [checkoutPlan, setCheckoutPlan] = useState<EmbedOption>();
  const [Checkout, setCheckout] = useState<ComponentType<CheckoutProps>>();
  const [paid, setPaid] = useState(false);
  const run = useRef(0);
  const noticeRef = useRef<HTMLDivElement>(null);

  // The form first renders: quote.ready without a quoteId (spec §6).
  useEffect(() => emit('quote.ready', {}), []);
  // A new prefill from the page (svc:frame.update) fills the fields it carries.
  const firstPrefill = useRef(config.prefill);
  useEffect(() => {
    if (config.prefill === firstPrefill.current) return;
    setValues((v) => applyPrefill(v, config.prefill, localToday()));
  }, [config.prefill]);
  // Stop polling when the UI goes away.
  useEffect(() => () => void run.current++, []);

  function change(next: FormValues) {
    setValues(next);
    if (validated) setErrors(validate(next, localToday()));
  }

  function fail(error: EmbedError, title: string) {
    setNotice({ tone: 'danger', title, message: error.message });
    emit('quote.error', { code: error.code, message: error.message });
    requestAnimationFrame(() => noticeRef.current?.focus());
  }

  async function submit() {
    const found = validate(values, localToday());
    setErrors(found);
    setValidated(true);
    const first = Object.keys(found)[0];
    if (first) {
      document.getElementById(`svc-${first}`)?.focus();
      return;
    }
    const mine = ++run.current;
    setStatus('quoting');
    setNotice(undefined);
    setReady(undefined);
    setSelected(undefined);
    setCheckoutPlan(undefined);
    setCheckoutLink(undefined);
    setTravelers(Number(values.travelers));
    try {
      const created = await api.createQuote(toQuoteBody(values));
      if (mine !== run.current) return;
      setQuote(created);
      emit('quote.ready', { quoteId: created.quoteId });
      if (!created.instantQuoteEligible) {
        setStatus('manual');
        return;
      }
      setStatus('polling');
      const options = await pollOptions({ fetchOptions: () => api.options(created.quoteId), sleep, now: () => Date.now(), isCancelled: () => mine !== run.current });
      if (!options || mine !== run.current) return;
      setReady({ ...options, options: sortOptions(options.options, options.recommendedPlanId) });
      setStatus(options.options.length ? 'ready' : 'manual');
      emit('quote.ready', { quoteId: created.quoteId, plansCount: options.options.length });
    } catch (e) {
      if (mine !== run.current) return;
      const error = e instanceof EmbedError ? e : new EmbedError('network', 'Something went wrong. Please try again.');
      setStatus('failed');
      if (error.code === 'options_timeout') fail(error, 'Prices are not ready yet');
      else fail(error, error.code === 'quote_refused' ? "We couldn't quote this trip" : "We couldn't get prices");
    }
  }

  function select(option: EmbedOption) {
    setSelected(option.planId);
    // Every click, exactly as received: integer cents, the payload's currency, no quoteId (spec §6 rules 1, 2, 4).
    emit('quote.selected', { planId: option.planId, premiumCents: option.premiumCents, currency: option.currency });
  }

  async function buy(option: EmbedOption) {
    select(option);
    if (!quote) return;
    if (buyMode === 'embedded') {
      setCheckoutPlan(option);
      if (!Checkout) {
        try {
          const component = await loadCheckout();
          setCheckout(() => component);
        } catch {
          fail(new EmbedError('network', "The checkout could not be loaded. Check your connection and try again."), 'Checkout unavailable');
          setCheckoutPlan(undefined);
        }
      }
      return;
    }
    setBuying(option.planId);
    setCheckoutLink(undefined);
    try {
      const { checkoutUrl } = await api.checkout({ quoteId: quote.quoteId, planId: option.planId, email: values.email.trim(), ...(values.name.trim() ? { name: values.name.trim() } : {}) });
      if (boot.kind === 'hosted') {
        window.location.assign(checkoutUrl);
        return;
      }
      window.open(checkoutUrl, '_blank', 'noopener,noreferrer');
      // window.open with noopener returns null whether or not a tab opened: always offer the link as well.
      setCheckoutLink(checkoutUrl);
    } catch (e) {
      fail(e instanceof EmbedError ? e : new EmbedError('network', 'Something went wrong. Please try again.'), "We couldn't open the checkout");
    } finally {
      setBuying(undefined);
    }
  }

  const busy = status === 'quoting' || status === 'polling';
  const testMode = boot.mode === 'test';

  return (
    <main class={`svc-widget svc-widget--${boot.kind}`}>
      {boot.kind === 'hosted' ? (
        <header class="svc-hosted-header">
          <p class="svc-hosted-header__operator">{boot.operatorName ?? 'Your tour operator'}</p>
          <h1>Travel insurance for your expedition</h1>
        </header>
      ) : (
        <h1 class="svc-widget__title">Protect your trip</h1>
      )}
      {testMode ? (
        <p class="svc-test-hint">
          <strong>Test mode</strong>: nothing is charged. E-mail <code>{SANDBOX.quoteErrorEmail}</code> (or a trip cost of {SANDBOX.quoteErrorTripCost}) forces a quote error,{' '}
          <code>{SANDBOX.optionsPendingEmail}</code> keeps prices pending{buyMode === 'embedded' ? `, and card ${SANDBOX.declinedCard} is declined` : ''}.
        </p>
      ) : null}
      {paid ? null : (
        <QuoteForm values={values} errors={errors} locale={locale} busy={busy} submitLabel={quote ? 'Update prices' : 'Get prices'} onChange={change} onSubmit={submit} />
      )}
      <div class="svc-notice" ref={noticeRef} tabIndex={-1}>
        {notice ? (
          <Alert tone={notice.tone} title={notice.title}>
            {notice.message}
          </Alert>
        ) : null}
      </div>
      {status === 'polling' || status === 'quoting' ? <PlanSkeletons /> : null}
      {status === 'manual' && quote ? (
        <Alert tone="info" title={`Quote ${quote.quoteNumber} received`}>
          We need a closer look at this trip before we can price it. A person will follow up by e-mail at {values.email.trim()}.
        </Alert>
      ) : null}
      {status === 'ready' && ready && !paid && !checkoutPlan ? (
        <PlanCards
          options={ready.options}
          recommendedPlanId={ready.recommendedPlanId}
          travelers={travelers}
          locale={locale}
          selectedPlanId={selected}
          buyMode={buyMode}
          buyingPlanId={buying}
          onSelect={select}
          onBuy={buy}
        />
      ) : null}
      {checkoutLink ? (
        <Alert tone="success" title="Checkout opened in a new tab">
          Finish your purchase there. No new tab?{' '}
          <a href={checkoutLink} target="_blank" rel="noopener noreferrer">
            Continue to checkout
          </a>
        </Alert>
      ) : null}
      {checkoutPlan && quote && Checkout ? (
        <Checkout
          api={api}
          boot={boot}
          quoteId={quote.quoteId}
          quoteNumber={quote.quoteNumber}
          option={checkoutPlan}
          email={values.email.trim()}
          locale={locale}
          emit={emit}
          onClose={() => setCheckoutPlan(undefined)}
          onPaid={() => setPaid(true)}
        />
      ) : null}
      {checkoutPlan && !Checkout ? (
        <div class="svc-checkout svc-card svc-checkout--loading" role="status">
          Preparing secure checkout…
        </div>
      ) : null}
    </main>
  );
}
