/**
 * @expedition/domain-pricing: the pure pricing domain (catalog, eligibility, premiums, recommendation,
 * confidence, CFAR, coverage gap). No I/O, no clock: callers pass `today`. Money is integer US cents unless a
 * field says USD (catalog limits are whole US dollars, as in the spec's plan fields).
 */
export { isPricingError } from './lib/errors';
export { centsToDollars, dollarsToCents } from './lib/money';

export { type Destination } from './lib/catalog/destinations.catalog';
export { GENERAL_EXCLUSIONS } from './lib/catalog/exclusions.table';
export { PLAN_HIGHLIGHTS, type HighlightKey } from './lib/catalog/highlights.table';
export { type Plan } from './lib/catalog/plans.catalog';
export { CFAR_WINDOW_DAYS, TIERS } from './lib/catalog/rates.table';
export {
  CATALOG_VERSION,
  catalogSnapshot,
  findDestination,
  getPlan,
  isPurchasable,
  listDestinations,
} from './lib/catalog/catalog';

export { listPlans } from './lib/plan-queries';
export { priceQuote } from './lib/quote';
export type { QuoteResult as PricedQuote } from './lib/quote';
export { analyzeCoverageGap } from './lib/coverage-gap';
