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
import { mark, MARKS } from '../marks';
import { sortOptions } from '../options';
import { pollOptions } from '../polling';
import { SANDBOX } from '../sandbox';
import { rich, useTexts } from '../texts';
import { explainError } from './errors';
import { buyMode as buyModeOf, canSelect, effectiveTier } from '../tier';
import { LANGUAGE_NAMES, LOCALES, slot, type Locale, type RenderLocale } from '@expedition/i18n';
import {
  applyPrefill,
  emptyValues,
  localToday,
  toQuoteBody,
  validate,
  type FormErrors,
  type FormValues,
} from '../validation';
import type { CheckoutProps } from './checkout';
import type { Emit } from './emit';
import { PlanCards, PlanSkeletons } from './plan-cards';
import { QuoteForm } from './quote-form';

export interface AppProps {
  boot: WidgetBootData;
  config: FrameConfig;
  emit: Emit;
  /** The hosted page's language switch (the iframe's language is the operator page's MountConfig.locale). */
  onLanguage?: (lang: Locale) => void;
}

type Status = 'idle' | 'quoting' | 'polling' | 'ready' | 'manual' | 'failed';
type Notice = { tone: 'danger' | 'warning' | 'info' | 'success'; title?: string; message: string };

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

function loadCheckout(): Promise<ComponentType<CheckoutProps>> {
  return import('./checkout').then((m) => m.Checkout);
}

export function App({ boot, config, emit, onLanguage }: AppProps) {
  const { t, lang } = useTexts();
  const api = useMemo(
    () => createEmbedClient({ embedUrl: boot.embedUrl, publishableKey: boot.publishableKey }),
    [boot],
  );
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

  // The form first renders: quote.ready without a quoteId (spec §6). Preact runs effects after the next frame, so the
  // form has been painted by then.
  useEffect(() => {
    mark(MARKS.formVisible);
    emit('quote.ready', {});
  }, []);
  // The plan cards of a quote are on screen (status 'ready' comes with `ready` in the same render, when it has plans).
  useEffect(() => {
    if (ready?.options.length) mark(MARKS.plansVisible);
  }, [ready]);
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
    if (validated) setErrors(validate(next, localToday(), t.validation));
  }

  /** The traveler reads the error in the widget's language; the page's `quote.error` keeps the code and the API's words. */
  function fail(error: EmbedError, title: string, message = explainError(error, t, lang)) {
    setNotice({ tone: 'danger', title, message });
    emit('quote.error', { code: error.code, message: error.message });
    requestAnimationFrame(() => noticeRef.current?.focus());
  }

  async function submit() {
    const found = validate(values, localToday(), t.validation);
    setErrors(found);
    setValidated(true);
    const first = Object.keys(found)[0];
    if (first) {
      document.getElementById(`svc-${first}`)?.focus();
      return;
    }
    const mine = ++run.current;
    mark(MARKS.quoteSubmitted);
    setStatus('quoting');
    setNotice(undefined);
    setReady(undefined);
    setSelected(undefined);
    setCheckoutPlan(undefined);
    setCheckoutLink(undefined);
    setTravelers(Number(values.travelers));
    try {
      const created = await api.createQuote(toQuoteBody(values, lang));
      if (mine !== run.current) return;
      setQuote(created);
      emit('quote.ready', { quoteId: created.quoteId });
      if (!created.instantQuoteEligible) {
        setStatus('manual');
        return;
      }
      setStatus('polling');
      const options = await pollOptions({
        fetchOptions: () => api.options(created.quoteId),
        sleep,
        now: () => Date.now(),
        isCancelled: () => mine !== run.current,
      });
      if (!options || mine !== run.current) return;
      setReady({ ...options, options: sortOptions(options.options, options.recommendedPlanId) });
      setStatus(options.options.length ? 'ready' : 'manual');
      emit('quote.ready', { quoteId: created.quoteId, plansCount: options.options.length });
    } catch (e) {
      if (mine !== run.current) return;
      const error = e instanceof EmbedError ? e : new EmbedError('network', 'Something went wrong. Please try again.');
      const message = e instanceof EmbedError ? undefined : t.errors.generic();
      setStatus('failed');
      if (error.code === 'options_timeout') fail(error, t.page.pricesNotReady(), message);
      else fail(error, error.code === 'quote_refused' ? t.page.couldNotQuote() : t.page.couldNotPrice(), message);
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
          fail(
            new EmbedError('network', 'The checkout could not be loaded. Check your connection and try again.'),
            t.page.checkoutUnavailable(),
            t.errors.checkoutLoad(),
          );
          setCheckoutPlan(undefined);
        }
      }
      return;
    }
    setBuying(option.planId);
    setCheckoutLink(undefined);
    try {
      const { checkoutUrl } = await api.checkout({
        quoteId: quote.quoteId,
        planId: option.planId,
        email: values.email.trim(),
        ...(values.name.trim() ? { name: values.name.trim() } : {}),
      });
      if (boot.kind === 'hosted') {
        window.location.assign(checkoutUrl);
        return;
      }
      window.open(checkoutUrl, '_blank', 'noopener,noreferrer');
      // window.open with noopener returns null whether or not a tab opened: always offer the link as well.
      setCheckoutLink(checkoutUrl);
    } catch (e) {
      if (e instanceof EmbedError) fail(e, t.page.couldNotOpenCheckout());
      else
        fail(
          new EmbedError('network', 'Something went wrong. Please try again.'),
          t.page.couldNotOpenCheckout(),
          t.errors.generic(),
        );
    } finally {
      setBuying(undefined);
    }
  }

  const busy = status === 'quoting' || status === 'polling';
  const testMode = boot.mode === 'test';

  const sandbox = { quoteErrorEmail: slot(0), tripCost: SANDBOX.quoteErrorTripCost, pendingEmail: slot(1) };
  const testHint =
    buyMode === 'embedded' ? t.page.testHintCard({ ...sandbox, card: slot(2) }) : t.page.testHint(sandbox);

  return (
    <main class={`svc-widget svc-widget--${boot.kind}`}>
      {boot.kind === 'hosted' ? (
        <header class="svc-hosted-header">
          {onLanguage ? <LanguageSwitch current={lang} onChoose={onLanguage} /> : null}
          <p class="svc-hosted-header__operator">{boot.operatorName ?? t.page.operatorFallback()}</p>
          <h1>{t.page.hostedTitle()}</h1>
        </header>
      ) : paid ? null : (
        // After payment the confirmation's own heading ("You are covered") leads: this one asks to buy.
        <h1 class="svc-widget__title">{t.page.widgetTitle()}</h1>
      )}
      {/* The pre-purchase hint; after payment the confirmation says plainly that the policy is a test (specimen). */}
      {testMode && !paid ? (
        <p class="svc-test-hint">
          {rich(testHint, [
            <code key="e">{SANDBOX.quoteErrorEmail}</code>,
            <code key="p">{SANDBOX.optionsPendingEmail}</code>,
            <span key="c" class="svc-nowrap">
              {SANDBOX.declinedCard}
            </span>,
          ])}
        </p>
      ) : null}
      {paid ? null : (
        <QuoteForm
          values={values}
          errors={errors}
          busy={busy}
          submitLabel={quote ? t.page.updatePrices() : t.page.getPrices()}
          onChange={change}
          onSubmit={submit}
        />
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
        <Alert tone="info" title={t.page.manualTitle({ quoteNumber: quote.quoteNumber })}>
          {t.page.manualBody({ quoteNumber: quote.quoteNumber })}
        </Alert>
      ) : null}
      {status === 'ready' && ready && !paid && !checkoutPlan ? (
        <PlanCards
          options={ready.options}
          recommendedPlanId={ready.recommendedPlanId}
          travelers={travelers}
          selectedPlanId={selected}
          buyMode={buyMode}
          selectable={canSelect(boot.kind)}
          buyingPlanId={buying}
          onSelect={select}
          onBuy={buy}
        />
      ) : null}
      {checkoutLink ? (
        <Alert tone="success" title={t.page.checkoutOpenedTitle()}>
          {t.page.checkoutOpenedBody()}{' '}
          <a href={checkoutLink} target="_blank" rel="noopener noreferrer">
            {t.page.continueToCheckout()}
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
          emit={emit}
          onClose={() => setCheckoutPlan(undefined)}
          onPaid={() => setPaid(true)}
        />
      ) : null}
      {checkoutPlan && !Checkout ? (
        <div class="svc-checkout svc-card svc-checkout--loading" role="status">
          {t.page.preparingCheckout()}
        </div>
      ) : null}
    </main>
  );
}

/** This page's address in another language (the key and the prefill kept). */
function withLocale(lang: Locale): string {
  const url = new URL(window.location.href);
  url.searchParams.set('locale', lang);
  return url.search;
}

/** Each language in its own name; a link (`?locale=`) that switches in place. */
function LanguageSwitch({ current, onChoose }: { current: RenderLocale; onChoose: (lang: Locale) => void }) {
  return (
    <nav class="svc-langs" aria-label="Language / Sprache / Langue / Idioma">
      {LOCALES.map((l) => (
        <a
          key={l}
          href={withLocale(l)}
          hreflang={l}
          lang={l}
          aria-current={l === current ? 'true' : undefined}
          onClick={(e) => {
            e.preventDefault();
            onChoose(l);
          }}
        >
          {LANGUAGE_NAMES[l]}
        </a>
      ))}
    </nav>
  );
}
