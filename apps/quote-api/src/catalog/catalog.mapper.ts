import {
  policyWordingUrls,
  type Destination as DestinationDto,
  type PlanDetails,
  type PlanSummary,
} from '@expedition/contracts';
import type { Destination, Plan } from '@expedition/domain-pricing';

export function toDestinationDto(d: Destination): DestinationDto {
  return {
    name: d.name,
    slug: d.slug,
    description: d.description,
    region: d.region,
    defaultDurationDays: d.defaultDurationDays,
  };
}

export function toPlanSummary(plan: Plan): PlanSummary {
  return {
    id: plan.id,
    planId: plan.id,
    name: plan.name,
    planName: plan.name,
    brand: plan.brand,
    carrier: plan.carrier,
    tier: plan.tier,
    description: plan.description,
    features: [...plan.features],
    basePrice: plan.basePrice,
    countriesCovered: [...plan.countriesCovered],
    evacuationCoverage: plan.evacuationCoverage,
    medicalExpenseLimit: plan.medicalExpenseLimit,
    tripCancellationLimit: plan.tripCancellationLimit,
    deductible: plan.deductible,
    availabilityMode: plan.availabilityMode,
    highlights: [...plan.highlights],
  };
}

/** `quoteApiUrl`: this API's public base URL, for the link to the plan's policy wording. */
export function toPlanDetails(plan: Plan, quoteApiUrl: string): PlanDetails {
  const { eligibility: e, coverage: c } = plan;
  return {
    planId: plan.id,
    planName: plan.name,
    carrier: plan.carrier,
    tier: plan.tier,
    brand: plan.brand,
    availabilityMode: plan.availabilityMode,
    destinations: [...plan.destinations],
    coverage: {
      medicalExpenseLimit: c.medicalExpenseLimit,
      evacuationCoverage: c.evacuationCoverage,
      tripCancellation: c.tripCancellation,
      deductible: c.deductible,
      cancelReason: c.cancelReason,
    },
    eligibility: {
      residenceType: e.residenceType,
      minAge: e.minAge,
      maxAge: e.maxAge,
      maxTripDuration: e.maxTripDuration,
      maxTravelers: e.maxTravelers,
    },
    highlights: [...plan.highlights],
    policyTermsUrl: policyWordingUrls(quoteApiUrl, plan.id).html,
  };
}
