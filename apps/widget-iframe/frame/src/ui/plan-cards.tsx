import type { EmbedOption } from '@expedition/contracts';
import { formatMoney, formatWholeAmount } from '@expedition/ui';
import { DISCLAIMER } from '../options';
import type { BuyMode } from '../tier';

const TIER_LABEL: Record<string, string> = { basic: 'Basic', standard: 'Standard', premium: 'Premium' };

export interface PlanCardsProps {
  options: EmbedOption[];
  recommendedPlanId: string | null | undefined;
  travelers: number;
  locale?: string;
  selectedPlanId?: string;
  buyMode: BuyMode;
  /** planId being bought (button busy). */
  buyingPlanId?: string;
  onSelect: (option: EmbedOption) => void;
  onBuy: (option: EmbedOption) => void;
}

export function PlanCards({ options, recommendedPlanId, travelers, locale, selectedPlanId, buyMode, buyingPlanId, onSelect, onBuy }: PlanCardsProps) {
  return (
    <section class="svc-plans" aria-labelledby="svc-plans-title">
      <h2 id="svc-plans-title" class="svc-plans__title">
        {options.length === 1 ? '1 plan for your trip' : `${options.length} plans for your trip`}
      </h2>
      {/* Announced when the cards replace the loading placeholders (the skeletons' status said "Finding plans…"). */}
      <p class="svc-visually-hidden" role="status">
        {options.length === 1 ? '1 plan found.' : `${options.length} plans found.`}
      </p>
      <ul class="svc-plans__list">
        {options.map((o) => {
          const recommended = o.isRecommended || o.planId === recommendedPlanId;
          const selected = o.planId === selectedPlanId;
          const titleId = `svc-plan-${o.planId}`;
          const terms = o.policyTermsUrl;
          return (
            <li key={o.planId}>
              {/* A click anywhere on the card selects it (quote.selected); the button is the keyboard way to do the same. */}
              <article
                class={`svc-plan${recommended ? ' svc-plan--recommended' : ''}${selected ? ' svc-plan--selected' : ''}`}
                aria-labelledby={titleId}
                data-plan-id={o.planId}
                onClick={(e) => {
                  if ((e.target as Element).closest('a, button')) return;
                  onSelect(o);
                }}
              >
                <div class="svc-plan__head">
                  <div>
                    {recommended ? <span class="svc-chip svc-chip--recommended">Recommended</span> : null}
                    <h3 id={titleId} class="svc-plan__name">
                      {o.name}
                    </h3>
                    <p class="svc-plan__meta">
                      <span class="svc-chip">{o.brand}</span> <span class="svc-plan__tier">{TIER_LABEL[o.tier] ?? o.tier} cover</span>
                    </p>
                  </div>
                  <p class="svc-plan__price">
                    <strong data-premium-cents={o.premiumCents}>{formatMoney(o.premiumCents, o.currency, locale)}</strong>
                    <span>{travelers > 1 ? `total for ${travelers} travelers` : 'total'}</span>
                  </p>
                </div>
                <dl class="svc-plan__limits">
                  <div>
                    <dt>Medical</dt>
                    <dd>{formatWholeAmount(o.coverage.medicalExpenseLimit, o.currency, locale)}</dd>
                  </div>
                  <div>
                    <dt>Evacuation</dt>
                    <dd>{formatWholeAmount(o.coverage.evacuationCoverage, o.currency, locale)}</dd>
                  </div>
                  <div>
                    <dt>Trip cancellation</dt>
                    <dd>{formatWholeAmount(o.coverage.tripCancellationLimit, o.currency, locale)}</dd>
                  </div>
                  <div>
                    <dt>Deductible</dt>
                    <dd>{formatWholeAmount(o.coverage.deductible, o.currency, locale)}</dd>
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
                  <span>Underwritten by {o.carrier.replace(/\.+$/, '')}.</span>{' '}
                  {terms ? (
                    <a href={terms} target="_blank" rel="noopener noreferrer">
                      Policy wording<span class="svc-visually-hidden"> of {o.name} (opens in a new tab)</span>
                    </a>
                  ) : (
                    <span>The policy wording is linked from your confirmation.</span>
                  )}
                </p>
                <div class="svc-plan__actions">
                  <button type="button" class="svc-btn svc-btn--secondary" aria-pressed={selected ? 'true' : 'false'} onClick={() => onSelect(o)}>
                    {selected ? 'Selected' : 'Select'}
                    <span class="svc-visually-hidden"> {o.name}</span>
                  </button>
                  {buyMode !== 'none' && o.checkout.purchasable ? (
                    <button
                      type="button"
                      class="svc-btn"
                      disabled={buyingPlanId !== undefined}
                      aria-busy={buyingPlanId === o.planId ? 'true' : undefined}
                      onClick={() => onBuy(o)}
                    >
                      {buyingPlanId === o.planId ? 'Opening checkout…' : 'Buy'}
                      <span class="svc-visually-hidden"> {o.name}</span>
                    </button>
                  ) : null}
                  {buyMode !== 'none' && !o.checkout.purchasable ? <span class="svc-plan__note">Not sold online: a person will follow up by e-mail.</span> : null}
                </div>
              </article>
            </li>
          );
        })}
      </ul>
      <p class="svc-disclaimer">{DISCLAIMER}</p>
    </section>
  );
}

/** Fixed-height placeholders while options generate: the frame does not jump when the cards arrive. */
export function PlanSkeletons() {
  return (
    <section class="svc-plans" aria-busy="true" aria-label="Loading plans">
      <p class="svc-plans__title" role="status">
        Finding plans for your trip…
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
