import { QUOTE_LIMITS, TRIP_DATE_WINDOW } from '@expedition/contracts/rules';
import type { DestinationSlug } from './destinations.catalog';

export type Tier = 'basic' | 'standard' | 'premium';

export const TIERS: readonly Tier[] = ['basic', 'standard', 'premium'];

/** Cheapest tier first; used wherever "cheapest tier" is asked for. */
export const TIER_RANK: Readonly<Record<Tier, number>> = { basic: 0, standard: 1, premium: 2 };

/**
 * Base rate per tier, as a fraction of each traveler's share of the trip cost. Typical comprehensive
 * travel-insurance premiums run 4–10 % of trip cost; expedition cover sits at the upper half once the
 * destination, duration and age factors apply. A plan can adjust its tier rate with `rateAdjustment`.
 */
export const TIER_BASE_RATES = {
  /** 4.0 % of trip cost: covered-reasons cancellation, lower medical and evacuation limits. */
  basic: 0.04,
  /** 5.5 % of trip cost: limits that meet polar operator minimums. */
  standard: 0.055,
  /** 7.2 % of trip cost: high limits, low or no deductible, CFAR options. */
  premium: 0.072,
} as const satisfies Record<Tier, number>;

/**
 * Per-traveler minimum premium, in cents, per tier: the administrative floor below which a policy is not
 * issued (it applies to very cheap or zero-cost trips).
 */
export const MIN_PREMIUM_CENTS_PER_TRAVELER = {
  /** $59 */
  basic: 5_900,
  /** $89 */
  standard: 8_900,
  /** $149 */
  premium: 14_900,
} as const satisfies Record<Tier, number>;

/**
 * Age factor by age at departure (spec §1 rule 3: ages 70 and over cost significantly more). Bands are
 * inclusive; the factor never decreases with age, so premiums never fall as a traveler gets older.
 */
export const AGE_BANDS = [
  /** Children: low medical-claim frequency. */
  { minAge: 0, maxAge: 17, factor: 0.6 },
  /** Reference band. */
  { minAge: 18, maxAge: 49, factor: 1.0 },
  { minAge: 50, maxAge: 59, factor: 1.3 },
  { minAge: 60, maxAge: 69, factor: 1.65 },
  /** 70+: claim costs rise steeply (spec rule 3): the step at 70 is the largest of the table (×1.45 over 60–69). */
  { minAge: 70, maxAge: 74, factor: 2.4 },
  { minAge: 75, maxAge: 79, factor: 2.9 },
  { minAge: 80, maxAge: 130, factor: 3.6 },
] as const;

/**
 * Duration factor by trip length in days (inclusive bands). Priced relative to a 1–2 week expedition, the
 * common length; longer trips mean more days exposed to medical claims. Non-decreasing with length.
 */
export const DURATION_BANDS = [
  { minDays: 1, maxDays: 7, factor: 0.9 },
  { minDays: 8, maxDays: 14, factor: 1.0 },
  { minDays: 15, maxDays: 21, factor: 1.12 },
  { minDays: 22, maxDays: 30, factor: 1.25 },
  { minDays: 31, maxDays: 60, factor: 1.45 },
  { minDays: 61, maxDays: TRIP_DATE_WINDOW.maxTripDays, factor: 1.8 },
] as const;

/**
 * Flat per-traveler evacuation loading, in cents, by destination: the expected cost of the evacuation
 * benefit, which depends on where the traveler is rather than on what the trip cost. Antarctic evacuations
 * (ship diversion or a ski-plane from Punta Arenas) are the costliest.
 */
export const EVACUATION_LOADING_CENTS = {
  /** $95 */
  antarctica: 9_500,
  /** $75 */
  arctic: 7_500,
  /** $45: hospital in Longyearbyen, air ambulance to Tromsø. */
  svalbard: 4_500,
  /** $35: short flight to mainland Ecuador. */
  galapagos: 3_500,
  /** $40: air-ambulance networks (e.g. Nairobi, Johannesburg). */
  'african-safari': 4_000,
} as const satisfies Record<DestinationSlug, number>;

/** Traveler age assumed when an age is missing (null or 0): a mid-life adult in the reference band. */
export const ASSUMED_TRAVELER_AGE = 45;

/*
 * Input limits (travelers, ages, trip cost, trip length) are not this table's: the engine refuses what the APIs
 * refuse, reading the one copy in `@expedition/contracts/rules` (README "Limits").
 */
/** Largest trip cost accepted, in cents (QUOTE_LIMITS.maxTripCost is whole dollars). */
export const MAX_TRIP_COST_CENTS = QUOTE_LIMITS.maxTripCost * 100;

/** Cancel-for-any-reason must be bought within this many days after the first trip deposit (inclusive). */
export const CFAR_WINDOW_DAYS = 21;

/** Ages above the last band's top are priced as that band (input validation stops them first). */
export function ageFactor(age: number): number {
  const band = AGE_BANDS.find((b) => age <= b.maxAge);
  return band ? band.factor : 3.4;
}

/** Durations above the last band's top are priced as that band (input validation stops them first). */
export function durationFactor(days: number): number {
  const band = DURATION_BANDS.find((b) => days <= b.maxDays);
  return band ? band.factor : 1.8;
}
