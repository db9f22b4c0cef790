import type { EmbedOption } from '@expedition/contracts';
import { formatMoney } from '@expedition/contracts/rules';
import { useEffect, useRef } from 'preact/hooks';
import { useTexts } from '../texts';
import type { BuyMode } from '../tier';

export interface PlanCardsProps {
  options: EmbedOption[];
  recommendedPlanId: string | null | undefined;
  travelers: number;
  selectedPlanId?: string;
  buyMode: BuyMode;
  /**
   * In an iframe a card tells the operator's page which plan the traveler chose (quote.selected); false on the hosted
   * page. Each card has ONE action: "Buy" where the plan can be bought here (buying selects it too), else "Select".
   */
  selectable: boolean;
  /** planId being bought (button busy). */
  buyingPlanId?: string;
  onSelect: (option: EmbedOption) => void;
  onBuy: (option: EmbedOption) => void;
}

export function PlanCards({
  options,
  recommendedPlanId,
  travelers,
  selectedPlanId,
  buyMode,
  selectable,
  buyingPlanId,
  onSelect,
  onBuy,
}: PlanCardsProps) {
  const { t, intl: locale } = useTexts();
  const p = t.plans;
  const titleRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => revealPlans(titleRef.current), []);
  // The catalog's carriers are invented and say so: "(illustrative)" in the widget's language.
  const carrier = (name: string) => {
    const bare = name.replace(/\.+$/, '').replace(/ \(illustrative\)$/, '');
    return bare === name.replace(/\.+$/, '') ? bare : p.carrierName({ name: bare });
  };
  // The catalog's limits are whole dollars: written without cents.
  const limit = (dollars: number, currency: string) =>
    formatMoney(dollars * 100, currency, locale, { trimZeroCents: true });
  const tierLabel = (tier: string) =>
    tier === 'basic' ? p.basic() : tier === 'standard' ? p.standard() : tier === 'premium' ? p.premium() : tier;
  return (
    <section class="svc-plans" aria-labelledby="svc-plans-title">
      <h2 id="svc-plans-title" class="svc-plans__title" tabIndex={-1} ref={titleRef}>
        {p.title({ count: options.length })}
      </h2>
      {/* Announced when the cards replace the loading placeholders (the skeletons' status said "Finding plans…"). */}
      <p class="svc-visually-hidden" role="status">
        {p.found({ count: options.length })}
      </p>
      <ul class="svc-plans__list">
        {options.map((o) => {
          const recommended = o.isRecommended || o.planId === recommendedPlanId;
          const selected = o.planId === selectedPlanId;
          const titleId = `svc-plan-${o.planId}`;
          const terms = o.policyTermsUrl;
          const buyable = buyMode !== 'none' && o.checkout.purchasable;
          return (
            <li key={o.planId}>
              {/* A click anywhere on the card selects it (quote.selected); the button is the keyboard way to do the same. */}
              <article
                class={`svc-plan${recommended ? ' svc-plan--recommended' : ''}${selected ? ' svc-plan--selected' : ''}`}
                aria-labelledby={titleId}
                data-plan-id={o.planId}
                onClick={(e) => {
                  if (!selectable || (e.target as Element).closest('a, button')) return;
                  onSelect(o);
                }}
              >
                <div class="svc-plan__head">
                  <div>
                    {recommended ? <span class="svc-chip svc-chip--recommended">{p.recommended()}</span> : null}
                    <h3 id={titleId} class="svc-plan__name">
                      {o.name}
                    </h3>
                    <p class="svc-plan__meta">
                      <span class="svc-chip">{o.brand}</span> <span class="svc-plan__tier">{tierLabel(o.tier)}</span>
                    </p>
                  </div>
                  <p class="svc-plan__price">
                    <strong data-premium-cents={o.premiumCents}>
                      {formatMoney(o.premiumCents, o.currency, locale)}
                    </strong>
                    <span>{travelers > 1 ? p.totalFor({ count: travelers }) : p.total()}</span>
                  </p>
                </div>
                <dl class="svc-plan__limits">
                  <div>
                    <dt>{p.medical()}</dt>
                    <dd>{limit(o.coverage.medicalExpenseLimit, o.currency)}</dd>
                  </div>
                  <div>
                    <dt>{p.evacuation()}</dt>
                    <dd>{limit(o.coverage.evacuationCoverage, o.currency)}</dd>
                  </div>
                  <div>
                    <dt>{p.tripCancellation()}</dt>
                    <dd>{limit(o.coverage.tripCancellationLimit, o.currency)}</dd>
                  </div>
                  <div>
                    <dt>{p.deductible()}</dt>
                    <dd>{limit(o.coverage.deductible, o.currency)}</dd>
                  </div>
                </dl>
                {o.highlights.length ? (
                  <ul class="svc-plan__highlights">
                    {o.highlights.slice(0, 4).map((h) => (
                      <li key={h}>{h}</li>
                    ))}
                  </ul>
                ) : null}
                <p class="svc-plan__terms">
                  <span>{p.underwrittenBy({ carrier: carrier(o.carrier) })}</span>{' '}
                  {terms ? (
                    <a href={terms} target="_blank" rel="noopener noreferrer">
                      {p.policyWording()}
                      <span class="svc-visually-hidden"> {p.policyWordingOf({ plan: o.name })}</span>
                    </a>
                  ) : (
                    <span>{p.wordingLater()}</span>
                  )}
                </p>
                <div class="svc-plan__actions">
                  {selectable && !buyable ? (
                    <button
                      type="button"
                      class="svc-btn svc-btn--secondary"
                      aria-pressed={selected ? 'true' : 'false'}
                      onClick={() => onSelect(o)}
                    >
                      {selected ? p.selected() : p.select()}
                      <span class="svc-visually-hidden"> {o.name}</span>
                    </button>
                  ) : null}
                  {buyable ? (
                    <button
                      type="button"
                      class="svc-btn"
                      disabled={buyingPlanId !== undefined}
                      aria-busy={buyingPlanId === o.planId ? 'true' : undefined}
                      // On the hosted page the button says what it does and the plan's name describes it; in an
                      // iframe it reads "Buy" with the plan's name for screen readers.
                      aria-describedby={selectable ? undefined : titleId}
                      onClick={() => onBuy(o)}
                    >
                      {buyingPlanId === o.planId ? p.openingCheckout() : selectable ? p.buy() : p.buyPlan()}
                      {selectable ? <span class="svc-visually-hidden"> {o.name}</span> : null}
                    </button>
                  ) : null}
                  {buyMode !== 'none' && !o.checkout.purchasable ? (
                    <span class="svc-plan__note">{p.notSoldOnline()}</span>
                  ) : null}
                </div>
              </article>
            </li>
          );
        })}
      </ul>
      <p class="svc-disclaimer">{p.disclaimer()}</p>
    </section>
  );
}

/**
 * On a phone the plans arrive below the fold, under the form: their heading is focused (a screen reader hears where
 * the results start) and scrolled to the top of the view; the browser scrolls the operator's page around the iframe
 * too. In an iframe that is still shorter than the cards, that waits for the loader to grow it (the frame's resize),
 * else the frame would scroll inside and then be grown back to its top; at most 1 s (a page may fix the height).
 */
function revealPlans(title: HTMLElement | null): (() => void) | undefined {
  if (!title) return undefined;
  title.focus({ preventScroll: true });
  const reveal = () => title.scrollIntoView({ block: 'start' });
  const growing = window.parent !== window && document.documentElement.scrollHeight > window.innerHeight;
  if (!growing) {
    reveal();
    return undefined;
  }
  const stop = () => {
    clearTimeout(timer);
    window.removeEventListener('resize', done);
  };
  const done = () => {
    stop();
    reveal();
  };
  const timer = setTimeout(done, 1000);
  window.addEventListener('resize', done);
  return stop;
}

/** Fixed-height placeholders while options generate: the frame does not jump when the cards arrive. */
export function PlanSkeletons() {
  const { t } = useTexts();
  return (
    <section class="svc-plans" aria-busy="true" aria-label={t.plans.loading()}>
      <p class="svc-plans__title" role="status">
        {t.plans.finding()}
      </p>
      <ul class="svc-plans__list">
        {[0, 1, 2].map((i) => (
          <li key={i}>
            <div class="svc-plan svc-plan--skeleton" aria-hidden="true" />
          </li>
        ))}
      </ul>
    </section>
  );
}
