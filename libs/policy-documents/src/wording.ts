import { CFAR_WINDOW_DAYS, GENERAL_EXCLUSIONS, type Plan } from '@expedition/domain-pricing';
import { formatList, type RenderLocale } from '@expedition/i18n';
import { documentsMessages } from '@expedition/i18n/documents';
import {
  ASSISTANCE,
  cancellationRule,
  emergencyLineLabel,
  howToClaim,
  illustrativeContactsNote,
  satellitePhoneNote,
} from './assistance';
import { cancelReasonText, carrierName, destinationName, exclusionText, planDescription } from './catalog-texts';
import { coverageLimitText } from './format';

/** One line of the benefits table. */
export interface Benefit {
  readonly benefit: string;
  readonly limit: string;
  readonly notes: string;
}

/**
 * A plan's policy wording, generated from its catalog row in one language: the one content that the HTML page and
 * the PDF both render, so they never disagree. Plain text only; renderers escape it.
 */
export interface PolicyWording {
  readonly planId: string;
  readonly locale: RenderLocale;
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

const RESIDENCE = {
  US: 'residentsUS',
  US_CA: 'residentsUSCA',
  worldwide: 'residentsWorldwide',
  non_US: 'residentsNonUS',
} as const satisfies Record<Plan['eligibility']['residenceType'], string>;

function residenceLine(plan: Plan, locale: RenderLocale): string {
  const m = documentsMessages(locale).wording;
  const e = plan.eligibility;
  const excluded = e.excludedResidences.filter((c) => !(e.residenceType === 'non_US' && c === 'US'));
  const parts = [m[RESIDENCE[e.residenceType]]()];
  if (excluded.length) parts.push(m.exceptResidentsOf({ countries: excluded.join(', ') }));
  if (e.excludedStates.length) parts.push(m.notSoldInStates({ states: e.excludedStates.join(', ') }));
  return `${parts.join(', ')}.`;
}

export function policyWording(plan: Plan, locale: RenderLocale = 'en'): PolicyWording {
  const m = documentsMessages(locale).wording;
  const e = plan.eligibility;
  const c = plan.coverage;
  const destinations = plan.destinations.map((slug) => destinationName(slug, locale));
  const benefits: Benefit[] = [
    { benefit: m.medical(), limit: coverageLimitText(c.medicalExpenseLimit, locale), notes: m.medicalNotes() },
    { benefit: m.evacuation(), limit: coverageLimitText(c.evacuationCoverage, locale), notes: m.evacuationNotes() },
    { benefit: m.cancellation(), limit: coverageLimitText(c.tripCancellation, locale), notes: m.cancellationNotes() },
    { benefit: m.deductible(), limit: coverageLimitText(c.deductible, locale), notes: m.deductibleNotes() },
  ];
  if (plan.cfar)
    benefits.push({ benefit: m.cfar(), limit: m.cfarLimit(), notes: m.cfarNotes({ days: CFAR_WINDOW_DAYS }) });
  const notOnSale = !plan.enabled
    ? m.retired()
    : plan.availabilityMode === 'admin_only'
      ? m.adminOnly()
      : plan.availabilityMode === 'inquiry'
        ? m.inquiry()
        : null;
  const carrier = carrierName(plan.carrier, locale);
  return {
    planId: plan.id,
    locale,
    title: m.title({ planName: plan.name }),
    carrier,
    illustrativeNote: m.illustrativeCarrier({ carrier: plan.carrier.replace(/ \(illustrative\)$/, '') }),
    notOnSale,
    summary: planDescription(plan, locale),
    benefits,
    coveredCancellationReasons: cancelReasonText(c.cancelReason, locale),
    eligibility: [
      residenceLine(plan, locale),
      m.ages({ min: e.minAge, max: e.maxAge }),
      m.maxTrip({ days: e.maxTripDuration ?? 365 }),
      e.maxTravelers === null ? m.anyNumberOfTravelers() : m.maxTravelers({ count: e.maxTravelers }),
      m.destinations({ destinations: formatList(destinations, locale) }),
    ],
    exclusions: GENERAL_EXCLUSIONS.map((text) => exclusionText(text, locale)),
    emergency: [
      `${documentsMessages(locale).common.labelValue({ label: emergencyLineLabel(locale), value: ASSISTANCE.emergencyLine.display })}.`,
      satellitePhoneNote(locale),
    ],
    howToClaim: howToClaim(locale),
    cancellation: cancellationRule(locale),
    contactsNote: illustrativeContactsNote(locale),
  };
}
