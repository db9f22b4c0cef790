import { formatMoney } from '@expedition/contracts/rules';
import { findDestination } from './catalog/catalog';
import type { Plan } from './catalog/plans.catalog';
import { isUsStateCode, normalizeCountryCode, normalizeStateCode } from './residence';

/** Machine-readable reasons a plan is not available for a trip; `reasons` carries the same in words. */
export type IneligibilityCode =
  | 'plan_disabled'
  | 'plan_admin_only'
  | 'unknown_destination'
  | 'destination_not_covered'
  | 'invalid_residence'
  | 'residence_not_allowed'
  | 'state_required'
  | 'unknown_state'
  | 'state_excluded'
  | 'age_below_minimum'
  | 'age_above_maximum'
  | 'trip_too_long'
  | 'too_many_travelers';

/**
 * The facts eligibility is judged on. Every field is optional: a field left out is not checked (so plan lists
 * can filter on residence alone); a quote passes them all.
 */
export interface EligibilityTrip {
  /** Destination slug, name or alias. */
  readonly destination?: string;
  /** ISO 3166-1 alpha-2, any case. */
  readonly residence?: string;
  /** US state code, any case; required when residence is US. */
  readonly state?: string | null;
  /** Ages at departure; null or 0 entries are "not given" and are not checked. */
  readonly travelerAges?: readonly (number | null)[];
  readonly durationDays?: number | null;
  readonly travelers?: number;
}

export type EligibilityResult =
  | { readonly eligible: true }
  | {
      readonly eligible: false;
      readonly reasons: readonly string[];
      readonly reasonCodes: readonly IneligibilityCode[];
    };

interface Finding {
  readonly code: IneligibilityCode;
  readonly reason: string;
}

/**
 * Whether `plan` may be sold for `trip`. Rules, all of which must pass:
 * 1. the plan is enabled and not admin-only;
 * 2. the plan covers the destination;
 * 3. the residence is allowed (allowedResidences, excludedResidences); a US resident must give a valid state,
 *    and that state must not be excluded by the plan; without a state a US resident is ineligible;
 * 4. every given age is within [minAge, maxAge];
 * 5. the duration is at most maxTripDuration (when the plan has one);
 * 6. the traveler count is at most maxTravelers (when the plan has one).
 */
export function checkEligibility(plan: Plan, trip: EligibilityTrip): EligibilityResult {
  const findings: Finding[] = [
    ...availabilityFindings(plan),
    ...destinationFindings(plan, trip.destination),
    ...residenceFindings(plan, trip.residence, trip.state),
    ...ageFindings(plan, trip.travelerAges),
    ...durationFindings(plan, trip.durationDays),
    ...travelerCountFindings(plan, trip.travelers),
  ];
  if (findings.length === 0) return { eligible: true };
  return { eligible: false, reasons: findings.map((f) => f.reason), reasonCodes: findings.map((f) => f.code) };
}

function availabilityFindings(plan: Plan): Finding[] {
  const findings: Finding[] = [];
  if (!plan.enabled) findings.push({ code: 'plan_disabled', reason: `${plan.name} is retired and no longer sold.` });
  if (plan.availabilityMode === 'admin_only') {
    findings.push({
      code: 'plan_admin_only',
      reason: `${plan.name} is not sold to the public; only an administrator can issue it.`,
    });
  }
  return findings;
}

function destinationFindings(plan: Plan, destination: string | undefined): Finding[] {
  if (destination === undefined) return [];
  const found = findDestination(destination);
  if (!found) return [{ code: 'unknown_destination', reason: `Unknown destination "${destination}".` }];
  if (plan.destinations.includes(found.slug)) return [];
  return [{ code: 'destination_not_covered', reason: `${plan.name} does not cover ${found.name}.` }];
}

function residenceFindings(plan: Plan, residence: string | undefined, state: string | null | undefined): Finding[] {
  if (residence === undefined) return [];
  const country = normalizeCountryCode(residence);
  if (!country) {
    return [
      { code: 'invalid_residence', reason: `Residence "${residence}" is not an ISO 3166-1 alpha-2 country code.` },
    ];
  }
  const { allowedResidences, excludedResidences } = plan.eligibility;
  if ((allowedResidences && !allowedResidences.includes(country)) || excludedResidences.includes(country)) {
    return [{ code: 'residence_not_allowed', reason: `${plan.name} is not available to residents of ${country}.` }];
  }
  return country === 'US' ? usStateFindings(plan, normalizeStateCode(state)) : [];
}

function usStateFindings(plan: Plan, state: string | null): Finding[] {
  if (state === null) {
    return [
      { code: 'state_required', reason: 'US residents must give their state of residence to check availability.' },
    ];
  }
  if (!isUsStateCode(state)) return [{ code: 'unknown_state', reason: `"${state}" is not a US state code.` }];
  if (plan.eligibility.excludedStates.includes(state)) {
    return [{ code: 'state_excluded', reason: `${plan.name} is not available to residents of ${state}.` }];
  }
  return [];
}

function ageFindings(plan: Plan, ages: readonly (number | null)[] | undefined): Finding[] {
  if (!ages) return [];
  const { minAge, maxAge } = plan.eligibility;
  const findings: Finding[] = [];
  ages.forEach((age, index) => {
    if (age === null || age === 0) return;
    if (age < minAge) {
      findings.push({
        code: 'age_below_minimum',
        reason: `Traveler ${index + 1} is ${age}; ${plan.name} covers ages ${minAge}–${maxAge}.`,
      });
    } else if (age > maxAge) {
      findings.push({
        code: 'age_above_maximum',
        reason: `Traveler ${index + 1} is ${age}; ${plan.name} covers ages ${minAge}–${maxAge}.`,
      });
    }
  });
  return findings;
}

function durationFindings(plan: Plan, durationDays: number | null | undefined): Finding[] {
  const max = plan.eligibility.maxTripDuration;
  if (durationDays === undefined || durationDays === null || max === null || durationDays <= max) return [];
  return [
    {
      code: 'trip_too_long',
      reason: `A ${durationDays}-day trip exceeds ${plan.name}'s maximum of ${max} days.`,
    },
  ];
}

function travelerCountFindings(plan: Plan, travelers: number | undefined): Finding[] {
  const max = plan.eligibility.maxTravelers;
  if (travelers === undefined || max === null || travelers <= max) return [];
  return [
    {
      code: 'too_many_travelers',
      reason: `${travelers} travelers exceed ${plan.name}'s maximum of ${max} per policy.`,
    },
  ];
}

/** Plain-words note when a traveler's share of the trip cost is above what the plan insures. */
export function tripCostCapNote(plan: Plan, largestShareCents: number): string | null {
  if (largestShareCents <= plan.tripCancellationLimit * 100) return null;
  const usd = (cents: number) => formatMoney(cents, 'USD', 'en-US', { trimZeroCents: true });
  return `Trip cancellation is insured up to ${usd(plan.tripCancellationLimit * 100)} per traveler, less than your cost of ${usd(largestShareCents)} per traveler; the premium is charged on the insured amount only.`;
}
