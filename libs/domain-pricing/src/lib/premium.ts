import type { DestinationSlug } from './catalog/destinations.catalog';
import { DESTINATION_TABLE } from './catalog/destinations.catalog';
import {
  ageFactor,
  durationFactor,
  EVACUATION_LOADING_CENTS,
  MIN_PREMIUM_CENTS_PER_TRAVELER,
  TIER_BASE_RATES,
  type Tier,
} from './catalog/rates.table';
import { applyFactorsHalfUp, toScaledFactor } from './money';

export interface TravelerPremiumInput {
  readonly tier: Tier;
  /** The plan's multiplier on its tier base rate. */
  readonly rateAdjustment: number;
  readonly destination: DestinationSlug;
  readonly durationDays: number;
  /** Age at departure. */
  readonly age: number;
  /** This traveler's insured share of the trip cost, in cents. */
  readonly insuredCostCents: number;
}

export interface TravelerPremiumBreakdown {
  /** insuredCost × tier rate × plan adjustment × destination risk × duration factor × age factor, rounded. */
  readonly tripCostPartCents: number;
  readonly evacuationLoadingCents: number;
  /** True when the tier's per-traveler minimum replaced the computed amount. */
  readonly minimumApplied: boolean;
  readonly premiumCents: number;
}

/**
 * Premium of ONE traveler on one plan, in integer cents.
 *
 *     tripCostPart = insuredCost × tierBaseRate × rateAdjustment × riskFactor × durationFactor × ageFactor
 *     premium      = max(minimumPremium[tier], round(tripCostPart) + evacuationLoading[destination])
 *
 * - insuredCost: the traveler's share of the total trip cost (split with `allocateCents`, equal weights),
 *   capped at the plan's per-traveler trip-cancellation limit: cost above the limit is not insured, so it is
 *   not charged for.
 * - Every factor is a documented table value (catalog/rates.table.ts, catalog/destinations.catalog.ts) with at
 *   most 4 decimals; the product is computed exactly in integers and rounded ONCE, half-up to the cent
 *   (x.5 cents rounds up).
 * - The evacuation loading is a flat amount per traveler by destination; the minimum premium is per tier.
 * - Every factor is ≥ 0 and non-decreasing in cost, age and duration, so the premium is too.
 */
export function travelerPremium(input: TravelerPremiumInput): TravelerPremiumBreakdown {
  const destination = DESTINATION_TABLE.find((d) => d.slug === input.destination);
  const riskFactor = destination ? destination.riskFactor : 1;
  const tripCostPartCents = applyFactorsHalfUp(input.insuredCostCents, [
    toScaledFactor(TIER_BASE_RATES[input.tier]),
    toScaledFactor(input.rateAdjustment),
    toScaledFactor(riskFactor),
    toScaledFactor(durationFactor(input.durationDays)),
    toScaledFactor(ageFactor(input.age)),
  ]);
  const evacuationLoadingCents = EVACUATION_LOADING_CENTS[input.destination];
  const computed = tripCostPartCents + evacuationLoadingCents;
  const minimum = MIN_PREMIUM_CENTS_PER_TRAVELER[input.tier];
  const premiumCents = Math.max(minimum, computed);
  return { tripCostPartCents, evacuationLoadingCents, minimumApplied: computed < minimum, premiumCents };
}
