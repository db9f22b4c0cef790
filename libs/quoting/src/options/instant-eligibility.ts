import { getPlan, isPurchasable } from '@expedition/domain-pricing';

/**
 * Which quotes are offered as bindable options: the embed widget's. Quote-API quotes are priced for an agent, who
 * buys through a checkout link or a machine payment, so they never get options.
 */
export function offersOptions(source: 'api' | 'embed' | 'acp'): boolean {
  return source === 'embed';
}

/** The facts of a stored quote that decide whether instant (bindable) options can be produced for it. */
export interface EligibilityFacts {
  startDate: Date | string | null;
  estimates: readonly { planId: string; confidence: string }[];
}

export type IneligibilityReason = 'no_start_date' | 'no_purchasable_plan' | 'traveler_data_incomplete';

export interface InstantEligibility {
  eligible: boolean;
  reasons: IneligibilityReason[];
}

/**
 * "Instant quote eligible" (embed API): a price can be bound right now, so priced options will be generated.
 *
 * 1. The trip has a departure date (the premium and the policy period hang on it).
 * 2. At least one estimate is for a purchasable plan (`full` or `deposit`, listed and enabled): inquiry plans need an
 *    underwriter, so they never make a quote instant.
 * 3. That purchasable estimate was priced on complete traveler data: every age known (no zero/assumed age) and a
 *    real trip length (given, or computed from start and end dates), not the destination's default. The engine
 *    encodes exactly this as confidence `high` for full/deposit plans (one step lower for a defaulted duration, one
 *    more for any assumed age), and the stored ages already have assumed values substituted, so the stored
 *    confidence is the durable record of "the data was complete".
 *
 * Decided once, by quoting's create, in the statement that stores the quote. A quote that fails this stays
 * `not_eligible`: nothing moves it on automatically today. The traveler can submit a
 * fuller quote (a new quote id); an underwriter/inquiry flow that completes the data is future work.
 */
export function instantQuoteEligibility(facts: EligibilityFacts): InstantEligibility {
  const reasons: IneligibilityReason[] = [];
  if (facts.startDate === null || facts.startDate === '') reasons.push('no_start_date');
  const purchasable = facts.estimates.filter((e) => {
    const plan = getPlan(e.planId);
    return plan !== undefined && isPurchasable(plan);
  });
  if (purchasable.length === 0) reasons.push('no_purchasable_plan');
  else if (!purchasable.some((e) => e.confidence === 'high')) reasons.push('traveler_data_incomplete');
  return { eligible: reasons.length === 0, reasons };
}
