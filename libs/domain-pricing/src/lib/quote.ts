import { findDestination, isPubliclyListed, allPlans } from './catalog/catalog';
import type { Destination } from './catalog/destinations.catalog';
import type { Plan } from './catalog/plans.catalog';
import { PRICED_CURRENCIES, QUOTE_LIMITS, TRIP_DATE_WINDOW } from '@expedition/contracts/rules';
import { ASSUMED_TRAVELER_AGE, MAX_TRIP_COST_CENTS } from './catalog/rates.table';
import { cfarStatus } from './cfar';
import { parseIsoDate } from './dates';
import { checkEligibility, tripCostCapNote, type IneligibilityCode } from './eligibility';
import { invalidInput, PricingError } from './errors';
import { allocateCents, toSafeCents } from './money';
import { travelerPremium } from './premium';
import { isUsStateCode, normalizeCountryCode, normalizeStateCode } from './residence';

export type Confidence = 'high' | 'medium' | 'low';

export interface QuoteInput {
  /** Destination slug, name or alias. */
  readonly destination: string;
  /** Departure date, YYYY-MM-DD; must not be before `today`. */
  readonly startDate?: string | null;
  /** Trip length in days; missing, null, 0 or less means "not given" and the destination default is used. */
  readonly durationDays?: number | null;
  /** Total trip cost for ALL travelers, in US cents. */
  readonly tripCostCents: number;
  /** Number of travelers, 1–100. */
  readonly travelers: number;
  /** One age per traveler when given; null or 0 means "not given" (the embed API zero-fills). */
  readonly travelerAges?: readonly (number | null)[] | null;
  /** ISO 3166-1 alpha-2, any case. */
  readonly residence: string;
  /** US state code, any case; US residents without one get no eligible plan. */
  readonly state?: string | null;
  /** First trip deposit date, YYYY-MM-DD; decides cancel-for-any-reason. */
  readonly depositPaidDate?: string | null;
  /** Only USD is priced; anything else is `invalid_input`. Default USD. */
  readonly currency?: string | null;
  /** The quote date, YYYY-MM-DD, injected by the caller's clock. */
  readonly today: string;
}

export interface PlanEstimate {
  readonly planId: string;
  readonly plan: Plan;
  readonly currency: 'USD';
  /** Total premium for all travelers, cents. Equals the sum of `travelerPremiumsCents`. */
  readonly premiumCents: number;
  /** Premium of each traveler, in input order. */
  readonly travelerPremiumsCents: readonly number[];
  /** Average per traveler, rounded half-up to the cent; for display (the exact split is above). */
  readonly premiumPerTravelerCents: number;
  readonly confidence: Confidence;
  readonly isRecommended: boolean;
  /** Plain-words notes (CFAR window, underwriter confirmation, limits), or null. */
  readonly notes: string | null;
  readonly cfarEligible: boolean;
}

export interface IneligiblePlan {
  readonly planId: string;
  readonly planName: string;
  readonly reasons: readonly string[];
  readonly reasonCodes: readonly IneligibilityCode[];
}

export interface QuoteResult {
  readonly destination: Destination;
  readonly currency: 'USD';
  readonly startDate: string | null;
  readonly durationDays: number;
  /** True when no duration was given and the destination's default was used. */
  readonly durationDefaulted: boolean;
  readonly travelers: number;
  /** Ages priced, one per traveler; missing ages replaced by ASSUMED_TRAVELER_AGE. */
  readonly travelerAges: readonly number[];
  /** Indexes (0-based) of travelers whose age was assumed. */
  readonly assumedAgeIndexes: readonly number[];
  readonly agesAssumed: boolean;
  readonly tripCostCents: number;
  /** Each traveler's share of the trip cost (equal split, exact to the cent). */
  readonly tripCostSharesCents: readonly number[];
  readonly residence: string;
  readonly state: string | null;
  /** Plain-words list of the assumptions made (default duration, assumed ages). */
  readonly assumptions: readonly string[];
  /** Recommended estimate first, then by premium ascending, then plan id. */
  readonly estimates: readonly PlanEstimate[];
  /** Null when no full/deposit plan is eligible. */
  readonly recommendedPlanId: string | null;
  /** Publicly listed plans for the destination that this trip cannot buy. */
  readonly ineligible: readonly IneligiblePlan[];
}

interface TripFacts {
  readonly destination: Destination;
  readonly startDate: string | null;
  readonly durationDays: number;
  readonly durationDefaulted: boolean;
  readonly travelers: number;
  readonly ages: readonly number[];
  readonly assumedAgeIndexes: readonly number[];
  readonly tripCostCents: number;
  readonly shares: readonly number[];
  readonly residence: string;
  readonly state: string | null;
  readonly todayDay: number;
  readonly depositDay: number | null;
}

/**
 * Prices every publicly listed plan (enabled, not admin-only) that covers the destination.
 *
 * - Eligible plans are priced (see `travelerPremium` for the formula); the others are listed in `ineligible`
 *   with their reasons.
 * - Confidence: `high` when the duration and every age were given; one step lower for a defaulted duration and
 *   one more for any missing age; `inquiry` plans are always `low` (an underwriter sets the final price).
 * - Recommendation: among eligible `full`/`deposit` plans, the cheapest whose evacuation AND medical limits
 *   meet the destination's requirements (ties: higher evacuation, then plan id); if none meets them, the one
 *   with the highest evacuation limit (ties: cheaper, then plan id). `inquiry` plans are never recommended.
 * - Order: the recommended estimate first, then premium ascending, then plan id.
 *
 * Throws `PricingError` (`unknown_destination`, `invalid_input`) for input that cannot be priced.
 */
export function priceQuote(input: QuoteInput): QuoteResult {
  const trip = normalizeTrip(input);
  const candidates = allPlans().filter((p) => isPubliclyListed(p) && p.destinations.includes(trip.destination.slug));
  const estimates: PlanEstimate[] = [];
  const ineligible: IneligiblePlan[] = [];
  for (const plan of candidates) {
    const verdict = checkEligibility(plan, {
      destination: trip.destination.slug,
      residence: trip.residence,
      state: trip.state,
      travelerAges: trip.ages,
      durationDays: trip.durationDays,
      travelers: trip.travelers,
    });
    if (verdict.eligible) estimates.push(estimatePlan(plan, trip));
    else
      ineligible.push({
        planId: plan.id,
        planName: plan.name,
        reasons: verdict.reasons,
        reasonCodes: verdict.reasonCodes,
      });
  }
  const recommendedPlanId = recommendPlanId(estimates, trip.destination);
  const ordered = orderEstimates(estimates, recommendedPlanId).map((e) => ({
    ...e,
    isRecommended: e.planId === recommendedPlanId,
  }));
  return {
    destination: trip.destination,
    currency: 'USD',
    startDate: trip.startDate,
    durationDays: trip.durationDays,
    durationDefaulted: trip.durationDefaulted,
    travelers: trip.travelers,
    travelerAges: trip.ages,
    assumedAgeIndexes: trip.assumedAgeIndexes,
    agesAssumed: trip.assumedAgeIndexes.length > 0,
    tripCostCents: trip.tripCostCents,
    tripCostSharesCents: trip.shares,
    residence: trip.residence,
    state: trip.state,
    assumptions: describeAssumptions(trip),
    estimates: ordered,
    recommendedPlanId,
    ineligible,
  };
}

/** Premium of each traveler on one plan for already-normalized trip facts. */
export function travelerPremiumsFor(
  plan: Plan,
  trip: Pick<TripFacts, 'destination' | 'durationDays' | 'ages' | 'shares'>,
): number[] {
  return trip.shares.map(
    (shareCents, index) =>
      travelerPremium({
        tier: plan.tier,
        rateAdjustment: plan.rateAdjustment,
        destination: trip.destination.slug,
        durationDays: trip.durationDays,
        age: trip.ages[index] ?? ASSUMED_TRAVELER_AGE,
        insuredCostCents: Math.min(shareCents, plan.tripCancellationLimit * 100),
      }).premiumCents,
  );
}

function estimatePlan(plan: Plan, trip: TripFacts): PlanEstimate {
  const travelerPremiumsCents = travelerPremiumsFor(plan, trip);
  const premiumCents = toSafeCents(travelerPremiumsCents.reduce((sum, p) => sum + BigInt(p), 0n));
  const cfar = cfarStatus(plan, trip.todayDay, trip.depositDay);
  const notes = [
    plan.availabilityMode === 'inquiry'
      ? 'Indicative price only: an underwriter confirms the final premium before this plan can be bought.'
      : null,
    plan.availabilityMode === 'deposit' ? 'Can be secured with a deposit; the balance is due before departure.' : null,
    tripCostCapNote(plan, Math.max(...trip.shares)),
    cfar.note,
  ].filter((n): n is string => n !== null);
  return {
    planId: plan.id,
    plan,
    currency: 'USD',
    premiumCents,
    travelerPremiumsCents,
    premiumPerTravelerCents: Math.round(premiumCents / trip.travelers),
    confidence: confidenceFor(plan, trip),
    isRecommended: false,
    notes: notes.length > 0 ? notes.join(' ') : null,
    cfarEligible: cfar.eligible,
  };
}

const CONFIDENCE_LEVELS: readonly Confidence[] = ['low', 'medium', 'high'];

function confidenceFor(plan: Plan, trip: TripFacts): Confidence {
  if (plan.availabilityMode === 'inquiry') return 'low';
  let level = 2;
  if (trip.durationDefaulted) level -= 1;
  if (trip.assumedAgeIndexes.length > 0) level -= 1;
  return CONFIDENCE_LEVELS[Math.max(0, level)] ?? 'low';
}

/** The recommendation rule (see priceQuote). Exported for tests; not part of the public index. */
export function recommendPlanId(
  estimates: readonly Pick<PlanEstimate, 'planId' | 'plan' | 'premiumCents'>[],
  destination: Destination,
): string | null {
  const sellable = estimates.filter((e) => e.plan.availabilityMode === 'full' || e.plan.availabilityMode === 'deposit');
  const { medicalEvacuationUsd, emergencyMedicalUsd } = destination.requirements;
  const meeting = sellable.filter(
    (e) => e.plan.evacuationCoverage >= medicalEvacuationUsd && e.plan.medicalExpenseLimit >= emergencyMedicalUsd,
  );
  if (meeting.length > 0) {
    const [best] = [...meeting].sort(
      (a, b) =>
        a.premiumCents - b.premiumCents ||
        b.plan.evacuationCoverage - a.plan.evacuationCoverage ||
        a.planId.localeCompare(b.planId),
    );
    return best ? best.planId : null;
  }
  const [fallback] = [...sellable].sort(
    (a, b) =>
      b.plan.evacuationCoverage - a.plan.evacuationCoverage ||
      a.premiumCents - b.premiumCents ||
      a.planId.localeCompare(b.planId),
  );
  return fallback ? fallback.planId : null;
}

function orderEstimates(estimates: readonly PlanEstimate[], recommendedPlanId: string | null): PlanEstimate[] {
  return [...estimates].sort((a, b) => {
    if (a.planId === recommendedPlanId) return -1;
    if (b.planId === recommendedPlanId) return 1;
    return a.premiumCents - b.premiumCents || a.planId.localeCompare(b.planId);
  });
}

function describeAssumptions(trip: TripFacts): string[] {
  const assumptions: string[] = [];
  if (trip.durationDefaulted) {
    assumptions.push(
      `Trip length not given: priced as ${trip.durationDays} days, the typical ${trip.destination.name} expedition.`,
    );
  }
  if (trip.assumedAgeIndexes.length > 0) {
    const who = trip.assumedAgeIndexes.map((i) => i + 1).join(', ');
    assumptions.push(`Age not given for traveler(s) ${who}: priced as ${ASSUMED_TRAVELER_AGE}.`);
  }
  return assumptions;
}

// ---- input normalization -------------------------------------------------------------------------------

function normalizeTrip(input: QuoteInput): TripFacts {
  const destination = findDestination(input.destination ?? '');
  if (!destination) {
    throw new PricingError('unknown_destination', `Unknown destination "${input.destination}".`, 'destination');
  }
  const todayDay = parseIsoDate('today', input.today);
  const travelers = requireTravelers(input.travelers);
  const tripCostCents = requireTripCost(input.tripCostCents);
  const { ages, assumedAgeIndexes } = normalizeAges(input.travelerAges, travelers);
  const { durationDays, durationDefaulted } = normalizeDuration(input.durationDays, destination);
  const { residence, state } = normalizeResidence(input.residence, input.state);
  requireUsd(input.currency);
  return {
    destination,
    startDate: normalizeStartDate(input.startDate, todayDay),
    durationDays,
    durationDefaulted,
    travelers,
    ages,
    assumedAgeIndexes,
    tripCostCents,
    shares: allocateCents(tripCostCents, new Array<number>(travelers).fill(1)),
    residence,
    state,
    todayDay,
    depositDay: isBlank(input.depositPaidDate) ? null : parseIsoDate('depositPaidDate', input.depositPaidDate ?? ''),
  };
}

function isBlank(value: string | null | undefined): boolean {
  return value === undefined || value === null || value.trim() === '';
}

function requireTravelers(travelers: number): number {
  if (!Number.isSafeInteger(travelers) || travelers < 1 || travelers > QUOTE_LIMITS.maxTravelers) {
    throw invalidInput('travelers', `travelers must be a whole number from 1 to ${QUOTE_LIMITS.maxTravelers}`);
  }
  return travelers;
}

function requireTripCost(cents: number): number {
  if (!Number.isSafeInteger(cents) || cents < 0 || cents > MAX_TRIP_COST_CENTS) {
    throw invalidInput(
      'tripCostCents',
      `tripCostCents must be a whole number of cents from 0 to ${MAX_TRIP_COST_CENTS.toLocaleString('en-US')}`,
    );
  }
  return cents;
}

function normalizeAges(
  given: readonly (number | null)[] | null | undefined,
  travelers: number,
): { ages: number[]; assumedAgeIndexes: number[] } {
  if (given !== undefined && given !== null && given.length !== travelers) {
    throw invalidInput('travelerAges', `travelerAges has ${given.length} entries for ${travelers} travelers`);
  }
  const ages: number[] = [];
  const assumedAgeIndexes: number[] = [];
  for (let i = 0; i < travelers; i += 1) {
    const age = given ? given[i] : null;
    if (age === null || age === undefined || age === 0) {
      ages.push(ASSUMED_TRAVELER_AGE);
      assumedAgeIndexes.push(i);
      continue;
    }
    if (!Number.isInteger(age) || age < 0 || age > QUOTE_LIMITS.maxTravelerAge) {
      throw invalidInput(
        'travelerAges',
        `traveler ${i + 1}'s age must be a whole number from 0 to ${QUOTE_LIMITS.maxTravelerAge}`,
      );
    }
    ages.push(age);
  }
  return { ages, assumedAgeIndexes };
}

function normalizeDuration(
  given: number | null | undefined,
  destination: Destination,
): { durationDays: number; durationDefaulted: boolean } {
  if (given === undefined || given === null || (Number.isFinite(given) && given <= 0)) {
    return { durationDays: destination.defaultDurationDays, durationDefaulted: true };
  }
  if (!Number.isInteger(given) || given > TRIP_DATE_WINDOW.maxTripDays) {
    throw invalidInput(
      'durationDays',
      `durationDays must be a whole number of days up to ${TRIP_DATE_WINDOW.maxTripDays}`,
    );
  }
  return { durationDays: given, durationDefaulted: false };
}

function normalizeResidence(
  residence: string,
  state: string | null | undefined,
): { residence: string; state: string | null } {
  const country = normalizeCountryCode(residence ?? '');
  if (!country)
    throw invalidInput('residence', 'residence must be an ISO 3166-1 alpha-2 country code such as US or GB');
  const stateCode = normalizeStateCode(state);
  if (country === 'US' && stateCode !== null && !isUsStateCode(stateCode)) {
    throw invalidInput('state', `"${stateCode}" is not a US state code`);
  }
  return { residence: country, state: stateCode };
}

function normalizeStartDate(startDate: string | null | undefined, todayDay: number): string | null {
  if (isBlank(startDate)) return null;
  const value = (startDate ?? '').trim();
  if (parseIsoDate('startDate', value) < todayDay) throw invalidInput('startDate', 'startDate is in the past');
  return value;
}

function requireUsd(currency: string | null | undefined): void {
  if (isBlank(currency) || (PRICED_CURRENCIES as readonly string[]).includes((currency ?? '').trim().toUpperCase()))
    return;
  throw invalidInput('currency', 'only USD trip costs can be priced');
}
