/**
 * Travel benefits of real US travel credit cards, as published by their issuers, for the coverage-gap
 * analysis. Only figures we are confident match the issuer's published Guide to Benefits / benefit terms are
 * listed; benefits are summaries, not the policy terms, and they usually apply only when the trip is paid with
 * the card. `asOf` is the date the figures were checked against; issuers change benefits, so a human or the
 * card's guide must confirm them.
 *
 * `evacuationUsd` and `emergencyMedicalUsd` are per person; 0 means the card states no such insurance limit.
 * Where a benefit is arranged without a stated limit (Amex Premium Global Assist), it counts as 0 here and a
 * note says so.
 */
export type CancellationBasis = 'per_person' | 'per_trip';

export interface CardTripCancellation {
  /** Limit in USD; 0 when the card has no trip-cancellation insurance. */
  readonly limitUsd: number;
  /** Whether `limitUsd` applies to each covered traveler or to the whole trip. */
  readonly basis: CancellationBasis;
  /** For per-person limits, the most paid for one trip across all travelers; null when none is stated. */
  readonly perTripMaxUsd: number | null;
}

export interface CreditCardBenefits {
  readonly tripCancellation: CardTripCancellation;
  readonly emergencyMedicalUsd: number;
  readonly evacuationUsd: number;
  /** Conditions and caveats in plain words. */
  readonly notes: readonly string[];
}

export interface CreditCard {
  readonly id: string;
  readonly name: string;
  readonly issuer: string;
  /** Other ways people name the card, for fuzzy matching. */
  readonly aliases: readonly string[];
  readonly benefits: CreditCardBenefits;
  readonly source: string;
  /** YYYY-MM-DD: when the figures were checked against the source. */
  readonly asOf: string;
}

const NO_MEDICAL_OR_EVAC = 'No emergency medical or medical evacuation insurance.';

export const CREDIT_CARD_TABLE = [
  {
    id: 'chase-sapphire-reserve',
    name: 'Chase Sapphire Reserve',
    issuer: 'Chase',
    aliases: ['CSR', 'Sapphire Reserve', 'Chase Reserve', 'Chase Sapphire Reserve Visa Infinite'],
    benefits: {
      tripCancellation: { limitUsd: 10_000, basis: 'per_person', perTripMaxUsd: 20_000 },
      emergencyMedicalUsd: 2_500,
      evacuationUsd: 100_000,
      notes: [
        'Trip cancellation/interruption up to $10,000 per person and $20,000 per trip.',
        'Trip-related emergency medical and dental up to $2,500 (with a $50 deductible), only when 100+ miles from home.',
        'Emergency evacuation and transportation up to $100,000.',
      ],
    },
    source: 'Chase Sapphire Reserve Guide to Benefits',
    asOf: '2025-06-01',
  },
  {
    id: 'chase-sapphire-reserve-business',
    name: 'Chase Sapphire Reserve for Business',
    issuer: 'Chase',
    aliases: ['Sapphire Reserve for Business', 'Sapphire Reserve Business', 'CSR Business'],
    benefits: {
      tripCancellation: { limitUsd: 10_000, basis: 'per_person', perTripMaxUsd: 20_000 },
      emergencyMedicalUsd: 2_500,
      evacuationUsd: 100_000,
      notes: [
        'Same travel protections as the personal Sapphire Reserve: trip cancellation up to $10,000 per person and $20,000 per trip, emergency medical up to $2,500, evacuation up to $100,000.',
      ],
    },
    source: 'Chase Sapphire Reserve for Business Guide to Benefits',
    asOf: '2025-06-01',
  },
  {
    id: 'chase-sapphire-preferred',
    name: 'Chase Sapphire Preferred',
    issuer: 'Chase',
    aliases: ['CSP', 'Sapphire Preferred', 'Chase Preferred'],
    benefits: {
      tripCancellation: { limitUsd: 10_000, basis: 'per_person', perTripMaxUsd: 20_000 },
      emergencyMedicalUsd: 0,
      evacuationUsd: 0,
      notes: [
        'Trip cancellation/interruption up to $10,000 per person and $20,000 per trip.',
        `${NO_MEDICAL_OR_EVAC} Travel and emergency assistance services only refer and arrange; the cardholder pays.`,
      ],
    },
    source: 'Chase Sapphire Preferred Guide to Benefits',
    asOf: '2025-06-01',
  },
  {
    id: 'amex-platinum',
    name: 'The Platinum Card from American Express',
    issuer: 'American Express',
    aliases: ['Amex Platinum', 'Platinum Card', 'American Express Platinum', 'Amex Plat', 'Platinum Amex'],
    benefits: {
      tripCancellation: { limitUsd: 10_000, basis: 'per_trip', perTripMaxUsd: null },
      emergencyMedicalUsd: 0,
      evacuationUsd: 0,
      notes: [
        'Trip cancellation and interruption up to $10,000 per trip and $20,000 per eligible card per 12 consecutive months.',
        'No emergency medical insurance.',
        'Premium Global Assist Hotline can arrange emergency medical transportation at no cost when Amex arranges it, with no stated dollar limit; it is counted as $0 here because no limit is stated.',
      ],
    },
    source:
      'American Express Platinum Card benefit terms (Trip Cancellation and Interruption Insurance; Premium Global Assist Hotline)',
    asOf: '2025-06-01',
  },
  {
    id: 'amex-business-platinum',
    name: 'The Business Platinum Card from American Express',
    issuer: 'American Express',
    aliases: ['Amex Business Platinum', 'Business Platinum', 'Biz Plat', 'Amex Biz Plat'],
    benefits: {
      tripCancellation: { limitUsd: 10_000, basis: 'per_trip', perTripMaxUsd: null },
      emergencyMedicalUsd: 0,
      evacuationUsd: 0,
      notes: [
        'Trip cancellation and interruption up to $10,000 per trip and $20,000 per eligible card per 12 consecutive months.',
        'No emergency medical insurance; Premium Global Assist Hotline may arrange emergency medical transportation at no cost with no stated limit (counted as $0 here).',
      ],
    },
    source: 'American Express Business Platinum Card benefit terms',
    asOf: '2025-06-01',
  },
  {
    id: 'capital-one-venture-x',
    name: 'Capital One Venture X',
    issuer: 'Capital One',
    aliases: ['Venture X', 'VentureX', 'Capital One Venture X Rewards', 'C1 Venture X'],
    benefits: {
      tripCancellation: { limitUsd: 2_000, basis: 'per_person', perTripMaxUsd: null },
      emergencyMedicalUsd: 0,
      evacuationUsd: 0,
      notes: ['Trip cancellation and interruption up to $2,000 per person.', NO_MEDICAL_OR_EVAC],
    },
    source: 'Capital One Venture X (Visa Infinite) Guide to Benefits',
    asOf: '2025-06-01',
  },
  {
    id: 'capital-one-venture',
    name: 'Capital One Venture',
    issuer: 'Capital One',
    aliases: ['Venture', 'Capital One Venture Rewards', 'Venture Rewards', 'C1 Venture'],
    benefits: {
      tripCancellation: { limitUsd: 0, basis: 'per_trip', perTripMaxUsd: null },
      emergencyMedicalUsd: 0,
      evacuationUsd: 0,
      notes: ['No trip cancellation insurance.', NO_MEDICAL_OR_EVAC],
    },
    source: 'Capital One Venture (Visa Signature) Guide to Benefits',
    asOf: '2025-06-01',
  },
  {
    id: 'citi-strata-premier',
    name: 'Citi Strata Premier',
    issuer: 'Citi',
    aliases: ['Strata Premier', 'Citi Premier', 'Citi ThankYou Premier', 'ThankYou Premier'],
    benefits: {
      tripCancellation: { limitUsd: 5_000, basis: 'per_trip', perTripMaxUsd: null },
      emergencyMedicalUsd: 0,
      evacuationUsd: 0,
      notes: [
        'Trip cancellation and interruption up to $5,000 per trip and $10,000 per 12 months.',
        NO_MEDICAL_OR_EVAC,
      ],
    },
    source: 'Citi Strata Premier Guide to Benefits',
    asOf: '2025-06-01',
  },
  {
    id: 'united-club-infinite',
    name: 'United Club Infinite Card',
    issuer: 'Chase',
    aliases: ['United Club Infinite', 'United Club Card', 'Chase United Club Infinite'],
    benefits: {
      tripCancellation: { limitUsd: 10_000, basis: 'per_person', perTripMaxUsd: 20_000 },
      emergencyMedicalUsd: 0,
      evacuationUsd: 0,
      notes: ['Trip cancellation/interruption up to $10,000 per person and $20,000 per trip.', NO_MEDICAL_OR_EVAC],
    },
    source: 'United Club Infinite Card Guide to Benefits',
    asOf: '2025-06-01',
  },
  {
    id: 'delta-skymiles-reserve',
    name: 'Delta SkyMiles Reserve American Express Card',
    issuer: 'American Express',
    aliases: ['Delta SkyMiles Reserve', 'Delta Reserve', 'Amex Delta Reserve', 'Delta Reserve Amex'],
    benefits: {
      tripCancellation: { limitUsd: 10_000, basis: 'per_trip', perTripMaxUsd: null },
      emergencyMedicalUsd: 0,
      evacuationUsd: 0,
      notes: [
        'Trip cancellation and interruption up to $10,000 per trip and $20,000 per eligible card per 12 consecutive months.',
        `${NO_MEDICAL_OR_EVAC} The Global Assist Hotline coordinates help; the cardholder pays for the services.`,
      ],
    },
    source: 'Delta SkyMiles Reserve American Express Card benefit terms',
    asOf: '2025-06-01',
  },
  {
    id: 'chase-ink-business-preferred',
    name: 'Ink Business Preferred Credit Card',
    issuer: 'Chase',
    aliases: ['Ink Business Preferred', 'Chase Ink Business Preferred', 'Ink Preferred', 'CIBP', 'Chase Ink Preferred'],
    benefits: {
      tripCancellation: { limitUsd: 5_000, basis: 'per_person', perTripMaxUsd: 10_000 },
      emergencyMedicalUsd: 0,
      evacuationUsd: 0,
      notes: ['Trip cancellation/interruption up to $5,000 per person and $10,000 per trip.', NO_MEDICAL_OR_EVAC],
    },
    source: 'Ink Business Preferred Guide to Benefits',
    asOf: '2025-06-01',
  },
] as const satisfies readonly CreditCard[];
