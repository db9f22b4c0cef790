import { isoDay, QUOTE_DISCLAIMER, type QuoteResponse } from '@expedition/contracts';
import type { Quote } from '@expedition/db';
import { centsToDollars, getPlan, type PricedQuote } from '@expedition/domain-pricing';
import { asLocale } from '@expedition/i18n';

export function toQuoteResponse(quote: Quote, sessionId: string, pricing: PricedQuote): QuoteResponse {
  const plans = pricing.estimates.map((e) => ({
    planId: e.planId,
    planName: e.plan.name,
    brand: e.plan.brand,
    tier: e.plan.tier,
    estimatedPremium: centsToDollars(e.premiumCents),
    estimatedPremiumCents: e.premiumCents,
    premiumPerTraveler: centsToDollars(e.premiumPerTravelerCents),
    travelerPremiumsCents: [...e.travelerPremiumsCents],
    currency: quote.currency,
    confidence: e.confidence,
    medicalLimit: e.plan.medicalExpenseLimit ?? null,
    evacuationLimit: e.plan.evacuationCoverage ?? null,
    deductible: e.plan.deductible ?? null,
    isRecommended: e.isRecommended,
    availabilityMode: e.plan.availabilityMode,
    cfarEligible: e.cfarEligible,
    notes: e.notes,
  }));
  const recommended = plans.find((p) => p.isRecommended);
  return {
    quoteId: quote.id,
    quoteNumber: quote.quoteNumber,
    sessionId,
    status: quote.status,
    expiresAt: quote.expiresAt?.toISOString(),
    tripSummary: {
      destination: { slug: pricing.destination.slug, name: pricing.destination.name },
      startDate: quote.startDate ? isoDay(quote.startDate) : '',
      endDate: quote.endDate ? isoDay(quote.endDate) : '',
      durationDays: quote.durationDays,
      durationDefaulted: quote.durationDefaulted,
      travelers: quote.travelers,
      travelerAges: [...quote.travelerAges],
      tripCost: centsToDollars(quote.tripCostCents),
      tripCostCents: quote.tripCostCents,
      currency: quote.currency,
      residence: quote.residence,
      state: quote.state,
      operator: quote.operatorName,
    },
    recommendedPlan: recommended?.planName ?? '',
    recommendedPlanId: recommended?.planId ?? null,
    plans,
    ineligiblePlans: pricing.ineligible.map((i) => ({
      planId: i.planId,
      planName: getPlan(i.planId)?.name ?? i.planId,
      reasons: [...i.reasons],
    })),
    disclaimer: QUOTE_DISCLAIMER,
    locale: asLocale(quote.locale),
  };
}
