import { z } from 'zod';
import { policyWordingUrls, type EmbedOption, type EmbedOptionsReady } from '@expedition/contracts';
import { getPlan, isPurchasable, type Plan } from '@expedition/domain-pricing';

/** Coverage figures frozen into `quote_options.coverage` when the option is generated (USD per person). */
export const OptionCoverageSchema = z.object({
  medicalExpenseLimit: z.number(),
  evacuationCoverage: z.number(),
  tripCancellationLimit: z.number(),
  deductible: z.number(),
});
export type OptionCoverage = z.infer<typeof OptionCoverageSchema>;

export interface EstimateForOption {
  planId: string;
  premiumCents: number;
  currency: string;
  rank: number;
  isRecommended: boolean;
}

export interface OptionRow {
  quoteId: string;
  planId: string;
  premiumCents: number;
  currency: string;
  rank: number;
  isRecommended: boolean;
  coverage: OptionCoverage;
}

/**
 * One option per estimate, same order. The bindable price of a purchasable plan is its estimate's premium (the
 * estimate was priced on complete data, see instantQuoteEligibility); inquiry plans are kept as options too so the
 * widget can show them, but they are never purchasable (see toEmbedOption).
 */
export function optionRowsFromEstimates(quoteId: string, estimates: readonly EstimateForOption[]): OptionRow[] {
  const rows: OptionRow[] = [];
  for (const estimate of estimates) {
    const plan = getPlan(estimate.planId);
    if (!plan) continue;
    rows.push({
      quoteId,
      planId: estimate.planId,
      premiumCents: estimate.premiumCents,
      currency: estimate.currency,
      rank: estimate.rank,
      isRecommended: estimate.isRecommended,
      coverage: coverageOf(plan),
    });
  }
  return rows;
}

function coverageOf(plan: Plan): OptionCoverage {
  return {
    medicalExpenseLimit: plan.medicalExpenseLimit,
    evacuationCoverage: plan.evacuationCoverage,
    tripCancellationLimit: plan.tripCancellationLimit,
    deductible: plan.deductible,
  };
}

export interface StoredOption {
  planId: string;
  premiumCents: number;
  currency: string;
  isRecommended: boolean;
  coverage: unknown;
  createdAt: Date;
}

export interface ReadyQuote {
  id: string;
  quoteNumber: string;
  currency: string;
  recommendedPlanId: string | null;
}

/**
 * The ready payload (docs/contract.md, GET /api/embed/options; defined in contracts as EmbedOptionsReady). Display
 * facts come from the in-code catalog (plans are never deleted from it: retired ones stay with `enabled: false`), so
 * `checkout.purchasable` is re-evaluated on read: a plan withdrawn after generation can no longer be bought.
 */
export function toEmbedOptionsReady(
  quote: ReadyQuote,
  options: readonly StoredOption[],
  links: { quoteApiUrl?: string } = {},
): EmbedOptionsReady {
  const mapped = options.flatMap((o) => {
    const option = toEmbedOption(o, links.quoteApiUrl);
    return option ? [option] : [];
  });
  const generatedAt = options.reduce<Date | null>(
    (min, o) => (min === null || o.createdAt < min ? o.createdAt : min),
    null,
  );
  return {
    quoteId: quote.id,
    quoteNumber: quote.quoteNumber,
    currency: quote.currency,
    recommendedPlanId: quote.recommendedPlanId,
    options: mapped,
    generatedAt: (generatedAt ?? new Date(0)).toISOString(),
  };
}

/** `quoteApiUrl`: where the plan's policy wording is served (quote-api); without it the option has no link. */
function toEmbedOption(stored: StoredOption, quoteApiUrl: string | undefined): EmbedOption | null {
  const plan = getPlan(stored.planId);
  if (!plan) return null;
  const parsed = OptionCoverageSchema.safeParse(stored.coverage);
  const coverage = parsed.success ? parsed.data : coverageOf(plan);
  const purchasable = isPurchasable(plan);
  return {
    planId: plan.id,
    name: plan.name,
    brand: plan.brand,
    carrier: plan.carrier,
    tier: plan.tier,
    premiumCents: stored.premiumCents,
    currency: stored.currency,
    coverage,
    highlights: [...plan.highlights],
    ...(quoteApiUrl ? { policyTermsUrl: policyWordingUrls(quoteApiUrl, plan.id).html } : {}),
    isRecommended: stored.isRecommended,
    availabilityMode: plan.availabilityMode,
    checkout: { purchasable, amountCents: purchasable ? stored.premiumCents : 0, currency: stored.currency },
  };
}
