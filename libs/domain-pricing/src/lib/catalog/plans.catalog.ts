import { CARRIER_TABLE, type CarrierId } from './carriers.catalog';
import type { DestinationSlug } from './destinations.catalog';
import { PLAN_HIGHLIGHTS, type HighlightKey } from './highlights.table';
import type { Tier } from './rates.table';

/**
 * How a plan is sold (spec §3):
 * - `full`: priced instantly and paid in full at purchase;
 * - `deposit`: priced instantly, can be secured with a deposit and the balance paid before departure;
 * - `inquiry`: indicative price only, an underwriter confirms the premium before sale;
 * - `admin_only`: not offered to the public (staff or negotiated cover), listed only with `includeDisabled`.
 */
export type AvailabilityMode = 'full' | 'deposit' | 'inquiry' | 'admin_only';

/**
 * Who may buy a plan, by country of residence:
 * - `US`: US residents only (they must give their state);
 * - `US_CA`: residents of the United States or Canada;
 * - `worldwide`: any country except those in `excludedResidences`;
 * - `non_US`: any country except the United States (and `excludedResidences`).
 */
export type ResidenceType = 'US' | 'US_CA' | 'worldwide' | 'non_US';

export interface PlanEligibility {
  readonly residenceType: ResidenceType;
  /** ISO 3166-1 alpha-2 codes allowed, or null when any country is allowed (subject to exclusions). */
  readonly allowedResidences: readonly string[] | null;
  /** ISO 3166-1 alpha-2 codes never allowed. */
  readonly excludedResidences: readonly string[];
  /** US state codes (USPS) whose residents cannot buy the plan (state filing not approved there). */
  readonly excludedStates: readonly string[];
  readonly minAge: number;
  readonly maxAge: number;
  /** Longest trip covered, in days; null when unlimited (up to the engine's 365-day maximum). */
  readonly maxTripDuration: number | null;
  /** Most travelers on one policy; null when unlimited. */
  readonly maxTravelers: number | null;
}

export interface PlanCoverage {
  /** Emergency medical limit per person, USD. */
  readonly medicalExpenseLimit: number;
  /** Medical evacuation limit per person, USD. */
  readonly evacuationCoverage: number;
  /** Trip-cancellation limit per person, USD (insured trip cost per traveler is capped at this). */
  readonly tripCancellation: number;
  /** Deductible per claim, USD. */
  readonly deductible: number;
  /** Which cancellations are reimbursed, in words. */
  readonly cancelReason: string;
}

export interface Plan {
  /** Stable slug, e.g. `polar-shield-standard`. */
  readonly id: string;
  readonly name: string;
  /** Short carrier brand for UI chips. */
  readonly brand: string;
  readonly carrierId: CarrierId;
  /** Carrier legal name. */
  readonly carrier: string;
  readonly tier: Tier;
  readonly description: string;
  readonly features: readonly string[];
  /** The plan card's short lines, in English (highlights.table.ts). */
  readonly highlights: readonly string[];
  /** The same lines by key, for their translations (libs/i18n: `catalog.highlights.<key>`). */
  readonly highlightKeys: readonly HighlightKey[];
  /** Destinations the plan covers. */
  readonly destinations: readonly DestinationSlug[];
  /** ISO 3166-1 alpha-2 codes of the countries and territories the covered destinations lie in. */
  readonly countriesCovered: readonly string[];
  /**
   * Indicative starting price, USD: the premium this engine computes for one traveler aged 35 on a USD 5,000
   * trip of the default length to the plan's least risky destination. Derived, so it always agrees with the
   * formula.
   */
  readonly basePrice: number;
  readonly currency: 'USD';
  readonly evacuationCoverage: number;
  readonly medicalExpenseLimit: number;
  readonly tripCancellationLimit: number;
  readonly deductible: number;
  readonly coverage: PlanCoverage;
  readonly availabilityMode: AvailabilityMode;
  readonly eligibility: PlanEligibility;
  /** Whether the plan offers cancel-for-any-reason (subject to the 21-day purchase window). */
  readonly cfar: boolean;
  /** False for retired plans: kept for existing quotes, never sold. */
  readonly enabled: boolean;
  /** Multiplies the tier base rate for this plan (carrier pricing), e.g. 0.95 or 1.08. */
  readonly rateAdjustment: number;
}

/** Where each destination lies (ISO 3166-1 alpha-2). */
export const DESTINATION_COUNTRIES = {
  antarctica: ['AQ'],
  /** Greenland, Canada, Iceland, Norway (Jan Mayen), Russia (Franz Josef Land, North Pole voyages). */
  arctic: ['GL', 'CA', 'IS', 'NO', 'RU'],
  /** Svalbard & Jan Mayen has its own ISO code; the cruise starts in Norway. */
  svalbard: ['SJ', 'NO'],
  galapagos: ['EC'],
  'african-safari': ['KE', 'TZ', 'UG', 'RW', 'BW', 'ZA', 'NA', 'ZM', 'ZW'],
} as const satisfies Record<DestinationSlug, readonly string[]>;

/** Comprehensively sanctioned jurisdictions: no illustrative carrier here writes cover for their residents. */
const SANCTIONED = ['CU', 'IR', 'KP', 'SY'] as const;

const COVERED_REASONS = 'Covered reasons (illness, injury, death in the family, severe weather, carrier default)';

type PlanRow = Omit<
  Plan,
  'brand' | 'carrier' | 'countriesCovered' | 'basePrice' | 'currency' | 'coverage' | 'eligibility' | 'highlights'
> & {
  readonly cancelReason: string;
  readonly eligibility: Omit<PlanEligibility, 'allowedResidences'>;
};

/**
 * The plan catalog. Limits are USD per person. `rateAdjustment` is the carrier's deviation from the tier base
 * rate (see rates.table.ts). The carriers are invented. Each plan's policy wording is generated from this row and
 * served by quote-api (`/policy-wording/{planId}`): no URL of ours is baked in here.
 */
export const PLAN_TABLE = [
  {
    id: 'polar-shield-essential',
    name: 'Polar Shield Essential',
    carrierId: 'polar-shield',
    tier: 'basic',
    description:
      'Entry-level polar cover for shorter voyages: trip cancellation for covered reasons and emergency medical care, with evacuation below most Antarctic operator minimums.',
    features: [
      'Trip cancellation for covered reasons',
      'Emergency medical',
      'Medical evacuation',
      '24/7 assistance line',
    ],
    highlightKeys: ['lowestCostPolar', 'coversPolarRegions'],
    destinations: ['antarctica', 'arctic', 'svalbard'],
    evacuationCoverage: 250_000,
    medicalExpenseLimit: 50_000,
    tripCancellationLimit: 15_000,
    deductible: 250,
    cancelReason: COVERED_REASONS,
    availabilityMode: 'full',
    eligibility: {
      residenceType: 'US_CA',
      excludedResidences: [],
      excludedStates: [],
      minAge: 0,
      maxAge: 74,
      maxTripDuration: 30,
      maxTravelers: 10,
    },
    cfar: false,
    enabled: true,
    rateAdjustment: 1.0,
  },
  {
    id: 'polar-shield-standard',
    name: 'Polar Shield Standard',
    carrierId: 'polar-shield',
    tier: 'standard',
    description:
      'Polar expedition cover that meets typical Antarctic and Arctic operator minimums: USD 500,000 evacuation and USD 100,000 emergency medical.',
    features: [
      'Trip cancellation and interruption',
      'Emergency medical USD 100,000',
      'Medical evacuation USD 500,000',
      'Missed-embarkation cover',
      'Optional cancel-for-any-reason (75 %)',
    ],
    highlightKeys: ['meetsPolarMinimums', 'cfarWithin21Days'],
    destinations: ['antarctica', 'arctic', 'svalbard'],
    evacuationCoverage: 500_000,
    medicalExpenseLimit: 100_000,
    tripCancellationLimit: 50_000,
    deductible: 100,
    cancelReason: 'Covered reasons, or cancel for any reason (75 %) when bought within 21 days of the first deposit',
    availabilityMode: 'full',
    eligibility: {
      residenceType: 'US_CA',
      excludedResidences: [],
      excludedStates: ['NY'],
      minAge: 0,
      maxAge: 84,
      maxTripDuration: 45,
      maxTravelers: 12,
    },
    cfar: true,
    enabled: true,
    rateAdjustment: 1.0,
  },
  {
    id: 'polar-shield-premium',
    name: 'Polar Shield Premium',
    carrierId: 'polar-shield',
    tier: 'premium',
    description:
      'Top polar cover for US residents: USD 1,000,000 evacuation, no deductible and cancel-for-any-reason, securable with a deposit.',
    features: [
      'Trip cancellation and interruption',
      'Emergency medical USD 250,000',
      'Medical evacuation USD 1,000,000',
      'Cancel-for-any-reason (75 %)',
      'Pre-existing condition waiver',
      'No deductible',
    ],
    highlightKeys: ['highestPolarLimits', 'noDeductible', 'usResidentsOnly'],
    destinations: ['antarctica', 'arctic', 'svalbard'],
    evacuationCoverage: 1_000_000,
    medicalExpenseLimit: 250_000,
    tripCancellationLimit: 100_000,
    deductible: 0,
    cancelReason: 'Covered reasons, or cancel for any reason (75 %) when bought within 21 days of the first deposit',
    availabilityMode: 'deposit',
    eligibility: {
      residenceType: 'US',
      excludedResidences: [],
      excludedStates: ['NY', 'WA'],
      minAge: 0,
      maxAge: 89,
      maxTripDuration: 60,
      maxTravelers: 10,
    },
    cfar: true,
    enabled: true,
    rateAdjustment: 1.0,
  },
  {
    id: 'meridian-expedition-standard',
    name: 'Meridian Expedition Standard',
    carrierId: 'meridian',
    tier: 'standard',
    description:
      'Worldwide-resident expedition cover for polar voyages and the Galápagos, priced slightly below its peers, with a USD 150,000 medical limit.',
    features: [
      'Trip cancellation and interruption',
      'Emergency medical USD 150,000',
      'Medical evacuation USD 500,000',
      'Search and rescue USD 25,000',
    ],
    highlightKeys: ['mostCountriesResidents', 'searchAndRescue'],
    destinations: ['antarctica', 'arctic', 'svalbard', 'galapagos'],
    evacuationCoverage: 500_000,
    medicalExpenseLimit: 150_000,
    tripCancellationLimit: 40_000,
    deductible: 100,
    cancelReason: COVERED_REASONS,
    availabilityMode: 'full',
    eligibility: {
      residenceType: 'worldwide',
      excludedResidences: [...SANCTIONED],
      excludedStates: ['WA'],
      minAge: 0,
      maxAge: 79,
      maxTripDuration: 45,
      maxTravelers: 15,
    },
    cfar: false,
    enabled: true,
    rateAdjustment: 0.95,
  },
  {
    id: 'meridian-expedition-premium',
    name: 'Meridian Expedition Premium',
    carrierId: 'meridian',
    tier: 'premium',
    description:
      'High-limit expedition cover for every destination we serve, for travelers up to age 99, with cancel-for-any-reason.',
    features: [
      'Trip cancellation and interruption',
      'Emergency medical USD 500,000',
      'Medical evacuation USD 1,000,000',
      'Cancel-for-any-reason (75 %)',
      'Search and rescue USD 50,000',
      'No deductible',
    ],
    highlightKeys: ['allFiveDestinations', 'agesUpTo99', 'noTravelerLimit'],
    destinations: ['antarctica', 'arctic', 'svalbard', 'galapagos', 'african-safari'],
    evacuationCoverage: 1_000_000,
    medicalExpenseLimit: 500_000,
    tripCancellationLimit: 150_000,
    deductible: 0,
    cancelReason: 'Covered reasons, or cancel for any reason (75 %) when bought within 21 days of the first deposit',
    availabilityMode: 'full',
    eligibility: {
      residenceType: 'worldwide',
      excludedResidences: [...SANCTIONED],
      excludedStates: [],
      minAge: 0,
      maxAge: 99,
      maxTripDuration: 90,
      maxTravelers: null,
    },
    cfar: true,
    enabled: true,
    rateAdjustment: 1.08,
  },
  {
    id: 'meridian-private-charter',
    name: 'Meridian Private Charter',
    carrierId: 'meridian',
    tier: 'premium',
    description:
      'Bespoke cover for private charters and large polar groups; the premium is set by an underwriter after review.',
    features: [
      'Trip cancellation up to USD 500,000 per person',
      'Emergency medical USD 500,000',
      'Medical evacuation USD 2,000,000',
      'Vessel-diversion costs',
    ],
    highlightKeys: ['underwrittenOnRequest', 'chartersUpTo120Days'],
    destinations: ['antarctica', 'arctic'],
    evacuationCoverage: 2_000_000,
    medicalExpenseLimit: 500_000,
    tripCancellationLimit: 500_000,
    deductible: 0,
    cancelReason: COVERED_REASONS,
    availabilityMode: 'inquiry',
    eligibility: {
      residenceType: 'worldwide',
      excludedResidences: [...SANCTIONED],
      excludedStates: [],
      minAge: 0,
      maxAge: 99,
      maxTripDuration: 120,
      maxTravelers: null,
    },
    cfar: false,
    enabled: true,
    rateAdjustment: 1.15,
  },
  {
    id: 'austral-voyager-basic',
    name: 'Austral Voyager Basic',
    carrierId: 'austral',
    tier: 'basic',
    description:
      'Budget cover for non-US residents on Antarctic and Galápagos voyages, with modest medical and evacuation limits.',
    features: [
      'Trip cancellation for covered reasons',
      'Emergency medical USD 50,000',
      'Medical evacuation USD 150,000',
    ],
    highlightKeys: ['nonUsResidents', 'lowPrice'],
    destinations: ['antarctica', 'galapagos'],
    evacuationCoverage: 150_000,
    medicalExpenseLimit: 50_000,
    tripCancellationLimit: 10_000,
    deductible: 250,
    cancelReason: COVERED_REASONS,
    availabilityMode: 'full',
    eligibility: {
      residenceType: 'non_US',
      excludedResidences: ['US', ...SANCTIONED],
      excludedStates: [],
      minAge: 0,
      maxAge: 79,
      maxTripDuration: 31,
      maxTravelers: 8,
    },
    cfar: false,
    enabled: true,
    rateAdjustment: 0.92,
  },
  {
    id: 'austral-voyager-plus',
    name: 'Austral Voyager Plus',
    carrierId: 'austral',
    tier: 'standard',
    description:
      'Mid-range cover for Antarctica, the Galápagos and safaris with a USD 200,000 medical limit, securable with a deposit.',
    features: [
      'Trip cancellation and interruption',
      'Emergency medical USD 200,000',
      'Medical evacuation USD 500,000',
      'Cancel-for-any-reason (75 %)',
    ],
    highlightKeys: ['secureWithDeposit', 'cfarWithin21Days'],
    destinations: ['antarctica', 'galapagos', 'african-safari'],
    evacuationCoverage: 500_000,
    medicalExpenseLimit: 200_000,
    tripCancellationLimit: 30_000,
    deductible: 100,
    cancelReason: 'Covered reasons, or cancel for any reason (75 %) when bought within 21 days of the first deposit',
    availabilityMode: 'deposit',
    eligibility: {
      residenceType: 'worldwide',
      excludedResidences: [...SANCTIONED],
      excludedStates: [],
      minAge: 0,
      maxAge: 84,
      maxTripDuration: 45,
      maxTravelers: 10,
    },
    cfar: true,
    enabled: true,
    rateAdjustment: 1.02,
  },
  {
    id: 'savanna-essentials',
    name: 'Savanna Essentials',
    carrierId: 'savanna',
    tier: 'basic',
    description:
      'Simple safari and Galápagos cover for US and Canadian residents: covered-reasons cancellation and air-ambulance evacuation.',
    features: [
      'Trip cancellation for covered reasons',
      'Emergency medical USD 50,000',
      'Air-ambulance evacuation USD 100,000',
    ],
    highlightKeys: ['lowestCostSafari', 'usCanadaResidents'],
    destinations: ['african-safari', 'galapagos'],
    evacuationCoverage: 100_000,
    medicalExpenseLimit: 50_000,
    tripCancellationLimit: 10_000,
    deductible: 250,
    cancelReason: COVERED_REASONS,
    availabilityMode: 'full',
    eligibility: {
      residenceType: 'US_CA',
      excludedResidences: [],
      excludedStates: [],
      minAge: 0,
      maxAge: 79,
      maxTripDuration: 30,
      maxTravelers: 10,
    },
    cfar: false,
    enabled: true,
    rateAdjustment: 0.95,
  },
  {
    id: 'savanna-explorer',
    name: 'Savanna Explorer',
    carrierId: 'savanna',
    tier: 'standard',
    description:
      'Safari and Galápagos cover that meets typical operator minimums, with cancel-for-any-reason and cover for lost safari gear.',
    features: [
      'Trip cancellation and interruption',
      'Emergency medical USD 100,000',
      'Medical evacuation USD 250,000',
      'Cancel-for-any-reason (75 %)',
      'Baggage and camera gear USD 2,500',
    ],
    highlightKeys: ['meetsSafariMinimums', 'mostCountriesResidents'],
    destinations: ['african-safari', 'galapagos'],
    evacuationCoverage: 250_000,
    medicalExpenseLimit: 100_000,
    tripCancellationLimit: 30_000,
    deductible: 100,
    cancelReason: 'Covered reasons, or cancel for any reason (75 %) when bought within 21 days of the first deposit',
    availabilityMode: 'full',
    eligibility: {
      residenceType: 'worldwide',
      excludedResidences: [...SANCTIONED],
      excludedStates: [],
      minAge: 0,
      maxAge: 84,
      maxTripDuration: 45,
      maxTravelers: 12,
    },
    cfar: true,
    enabled: true,
    rateAdjustment: 1.0,
  },
  {
    id: 'savanna-ultimate',
    name: 'Savanna Ultimate',
    carrierId: 'savanna',
    tier: 'premium',
    description:
      'Premium safari cover for US residents with USD 500,000 evacuation, no deductible and cancel-for-any-reason.',
    features: [
      'Trip cancellation and interruption',
      'Emergency medical USD 250,000',
      'Medical evacuation USD 500,000',
      'Cancel-for-any-reason (75 %)',
      'No deductible',
    ],
    highlightKeys: ['highestSafariLimits', 'usResidentsOnly'],
    destinations: ['african-safari'],
    evacuationCoverage: 500_000,
    medicalExpenseLimit: 250_000,
    tripCancellationLimit: 100_000,
    deductible: 0,
    cancelReason: 'Covered reasons, or cancel for any reason (75 %) when bought within 21 days of the first deposit',
    availabilityMode: 'full',
    eligibility: {
      residenceType: 'US',
      excludedResidences: [],
      excludedStates: ['NY'],
      minAge: 0,
      maxAge: 89,
      maxTripDuration: 60,
      maxTravelers: 10,
    },
    cfar: true,
    enabled: true,
    rateAdjustment: 1.0,
  },
  {
    id: 'polar-shield-expedition-staff',
    name: 'Polar Shield Expedition Staff',
    carrierId: 'polar-shield',
    tier: 'standard',
    description:
      'Negotiated cover for expedition guides and ship staff, issued by an administrator on an operator’s request; not sold to the public.',
    features: ['Emergency medical USD 100,000', 'Medical evacuation USD 500,000', 'Season-long cover'],
    highlightKeys: ['staffAndGuidesOnly', 'issuedByAdministrator'],
    destinations: ['antarctica', 'arctic', 'svalbard'],
    evacuationCoverage: 500_000,
    medicalExpenseLimit: 100_000,
    tripCancellationLimit: 5_000,
    deductible: 100,
    cancelReason: COVERED_REASONS,
    availabilityMode: 'admin_only',
    eligibility: {
      residenceType: 'worldwide',
      excludedResidences: [...SANCTIONED],
      excludedStates: [],
      minAge: 18,
      maxAge: 70,
      maxTripDuration: 180,
      maxTravelers: null,
    },
    cfar: false,
    enabled: true,
    rateAdjustment: 0.85,
  },
  {
    id: 'austral-classic',
    name: 'Austral Classic (retired)',
    carrierId: 'austral',
    tier: 'basic',
    description:
      'Retired Antarctic and Galápagos plan, replaced by Austral Voyager Basic; kept so existing quotes resolve.',
    features: [
      'Trip cancellation for covered reasons',
      'Emergency medical USD 25,000',
      'Medical evacuation USD 100,000',
    ],
    highlightKeys: ['noLongerSold'],
    destinations: ['antarctica', 'galapagos'],
    evacuationCoverage: 100_000,
    medicalExpenseLimit: 25_000,
    tripCancellationLimit: 10_000,
    deductible: 500,
    cancelReason: COVERED_REASONS,
    availabilityMode: 'full',
    eligibility: {
      residenceType: 'worldwide',
      excludedResidences: [...SANCTIONED],
      excludedStates: [],
      minAge: 0,
      maxAge: 75,
      maxTripDuration: 30,
      maxTravelers: 8,
    },
    cfar: false,
    enabled: false,
    rateAdjustment: 1.0,
  },
] as const satisfies readonly PlanRow[];

const ALLOWED_BY_TYPE: Readonly<Record<ResidenceType, readonly string[] | null>> = {
  US: ['US'],
  US_CA: ['US', 'CA'],
  worldwide: null,
  non_US: null,
};

/**
 * Fills the derived fields (carrier names, highlights' English, countries, nested coverage, allowed residences).
 * basePrice is set later.
 */
export function buildPlan(row: PlanRow, basePrice: number): Plan {
  const carrier = CARRIER_TABLE.find((c) => c.id === row.carrierId);
  if (!carrier) throw new Error(`plan ${row.id} names unknown carrier ${row.carrierId}`);
  const { cancelReason, eligibility, ...rest } = row;
  const countries = [...new Set(row.destinations.flatMap((d) => DESTINATION_COUNTRIES[d]))];
  const excludedResidences =
    eligibility.residenceType === 'non_US' && !eligibility.excludedResidences.includes('US')
      ? ['US', ...eligibility.excludedResidences]
      : eligibility.excludedResidences;
  return {
    ...rest,
    highlights: row.highlightKeys.map((key) => PLAN_HIGHLIGHTS[key]),
    brand: carrier.brand,
    carrier: carrier.legalName,
    countriesCovered: countries,
    basePrice,
    currency: 'USD',
    coverage: {
      medicalExpenseLimit: row.medicalExpenseLimit,
      evacuationCoverage: row.evacuationCoverage,
      tripCancellation: row.tripCancellationLimit,
      deductible: row.deductible,
      cancelReason,
    },
    eligibility: {
      ...eligibility,
      excludedResidences,
      allowedResidences: ALLOWED_BY_TYPE[eligibility.residenceType],
    },
  };
}

export type { PlanRow };
