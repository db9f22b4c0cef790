import { CFAR_WINDOW_DAYS, findDestination, GENERAL_EXCLUSIONS, type Plan } from '@expedition/domain-pricing';
import { ASSISTANCE, CANCELLATION_RULE, HOW_TO_CLAIM, ILLUSTRATIVE_CONTACTS_NOTE } from './assistance';
import { formatUsd } from './format';

/** One line of the benefits table. */
export interface Benefit {
  readonly benefit: string;
  readonly limit: string;
  readonly notes: string;
}

/**
 * A plan's policy wording, generated from its catalog row: the one content that the HTML page and the PDF both
 * render, so they never disagree. Plain text only; renderers escape it.
 */
export interface PolicyWording {
  readonly planId: string;
  readonly title: string;
  readonly carrier: string;
  readonly illustrativeNote: string;
  /** Null for a plan on sale; otherwise why it cannot be bought (retired, staff only). */
  readonly notOnSale: string | null;
  readonly summary: string;
  readonly benefits: readonly Benefit[];
  readonly coveredCancellationReasons: string;
  readonly eligibility: readonly string[];
  readonly exclusions: readonly string[];
  readonly emergency: readonly string[];
  readonly howToClaim: readonly string[];
  readonly cancellation: string;
  readonly contactsNote: string;
}

const RESIDENCE: Record<Plan['eligibility']['residenceType'], string> = {
  US: 'Residents of the United States',
  US_CA: 'Residents of the United States or Canada',
  worldwide: 'Residents of any country',
  non_US: 'Residents of any country except the United States',
};

function residenceLine(plan: Plan): string {
  const e = plan.eligibility;
  const excluded = e.excludedResidences.filter((c) => !(e.residenceType === 'non_US' && c === 'US'));
  const parts = [RESIDENCE[e.residenceType]];
  if (excluded.length) parts.push(`except residents of ${excluded.join(', ')}`);
  if (e.excludedStates.length) parts.push(`not sold to residents of ${e.excludedStates.join(', ')}`);
  return `${parts.join(', ')}.`;
}

export function policyWording(plan: Plan): PolicyWording {
  const e = plan.eligibility;
  const c = plan.coverage;
  const destinations = plan.destinations.map((slug) => findDestination(slug)?.name ?? slug);
  const benefits: Benefit[] = [
    { benefit: 'Emergency medical expenses', limit: formatUsd(c.medicalExpenseLimit), notes: 'Per traveler, per trip: hospital, doctor and medicines abroad.' },
    {
      benefit: 'Emergency evacuation and repatriation',
      limit: formatUsd(c.evacuationCoverage),
      notes: 'Per traveler: evacuation arranged by the assistance team to the nearest suitable hospital, and home.',
    },
    {
      benefit: 'Trip cancellation and interruption',
      limit: formatUsd(c.tripCancellation),
      notes: 'Per traveler, up to the trip cost insured: non-refundable trip costs, for covered reasons only.',
    },
    { benefit: 'Deductible', limit: formatUsd(c.deductible), notes: 'Per claim: the part of each claim you pay yourself.' },
  ];
  if (plan.cfar) {
    benefits.push({
      benefit: 'Cancel for any reason',
      limit: 'Included',
      notes: `Only when the policy was bought within ${CFAR_WINDOW_DAYS} days of the first trip deposit.`,
    });
  }
  const notOnSale = !plan.enabled
    ? 'This plan is no longer sold. This wording stays published for the quotes and policies made while it was.'
    : plan.availabilityMode === 'admin_only'
      ? 'This plan is not sold to the public (staff and negotiated cover).'
      : plan.availabilityMode === 'inquiry'
        ? 'This plan is not sold online: an underwriter confirms the premium before it is sold.'
        : null;
  return {
    planId: plan.id,
    title: `${plan.name}: policy wording`,
    carrier: plan.carrier,
    illustrativeNote:
      `${plan.carrier.replace(/ \(illustrative\)$/, '')} is an illustrative carrier, invented for this platform: no real insurer ` +
      'underwrites this plan.',
    notOnSale,
    summary: plan.description,
    benefits,
    coveredCancellationReasons: c.cancelReason,
    eligibility: [
      residenceLine(plan),
      `Travelers aged ${e.minAge} to ${e.maxAge} at departure.`,
      e.maxTripDuration === null ? 'Trips of up to 365 days.' : `Trips of up to ${e.maxTripDuration} days.`,
      e.maxTravelers === null ? 'Any number of travelers on one policy.' : `Up to ${e.maxTravelers} travelers on one policy.`,
      `Destinations covered: ${destinations.join(', ')}.`,
    ],
    exclusions: [...GENERAL_EXCLUSIONS],
    emergency: [
      `${ASSISTANCE.emergencyLine.label}: ${ASSISTANCE.emergencyLine.display}.`,
      ASSISTANCE.satellitePhoneNote,
    ],
    howToClaim: HOW_TO_CLAIM,
    cancellation: CANCELLATION_RULE,
    contactsNote: ILLUSTRATIVE_CONTACTS_NOTE,
  };
}
