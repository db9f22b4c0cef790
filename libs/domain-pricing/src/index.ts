/**
 * @expedition/domain-pricing: the pure pricing domain (catalog, eligibility, premiums, recommendation,
 * confidence, CFAR, coverage gap). No I/O, no clock: callers pass `today`. Money is integer US cents unless a
 * field says USD (catalog limits are whole US dollars, as in the spec's plan fields).
 */
export { PricingError, isPricingError, type PricingErrorCode } from './lib/errors';
export { allocateCents, centsToDollars, dollarsToCents } from './lib/money';

export {
  DESTINATION_SLUGS,
  type Destination,
  type DestinationRequirements,
  type DestinationSlug,
} from './lib/catalog/destinations.catalog';
export { CARRIER_TABLE, type Carrier, type CarrierId } from './lib/catalog/carriers.catalog';
export { GENERAL_EXCLUSIONS } from './lib/catalog/exclusions.table';
export { PLAN_HIGHLIGHTS, type HighlightKey } from './lib/catalog/highlights.table';
export {
  type AvailabilityMode,
  type Plan,
  type PlanCoverage,
  type PlanEligibility,
  type ResidenceType,
} from './lib/catalog/plans.catalog';
export {
  AGE_BANDS,
  ASSUMED_TRAVELER_AGE,
  CFAR_WINDOW_DAYS,
  DURATION_BANDS,
  EVACUATION_LOADING_CENTS,
  MAX_TRIP_COST_CENTS,
  MIN_PREMIUM_CENTS_PER_TRAVELER,
  TIER_BASE_RATES,
  TIERS,
  type Tier,
} from './lib/catalog/rates.table';
export {
  BASE_PRICE_REFERENCE,
  CATALOG_VERSION,
  catalogSnapshot,
  findDestination,
  getPlan,
  isPubliclyListed,
  isPurchasable,
  listDestinations,
} from './lib/catalog/catalog';
export { US_STATE_CODES, type UsStateCode } from './lib/residence';

export { listPlans, type PlanFilter } from './lib/plan-queries';
export {
  checkEligibility,
  type EligibilityResult,
  type EligibilityTrip,
  type IneligibilityCode,
} from './lib/eligibility';
export { travelerPremium, type TravelerPremiumBreakdown, type TravelerPremiumInput } from './lib/premium';
export {
  priceQuote,
  type Confidence,
  type IneligiblePlan,
  type PlanEstimate,
  type QuoteInput,
  type QuoteResult,
} from './lib/quote';
export type { QuoteResult as PricedQuote } from './lib/quote';
export {
  analyzeCoverageGap,
  DEFAULT_ASSUMED_TRIP_COST_USD,
  matchCreditCard,
  TRIP_COST_RANGE_ASSUMED_USD,
  TRIP_COST_RANGES,
  type CoverageGap,
  type CoverageGapInput,
  type CoverageGapResult,
  type CoverageKind,
  type GapClosingPlan,
  type TripCostRange,
} from './lib/coverage-gap';
export type {
  CancellationBasis,
  CardTripCancellation,
  CreditCard,
  CreditCardBenefits,
} from './lib/catalog/credit-cards.table';
