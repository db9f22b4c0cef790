import { allPlans, findDestination, isPurchasable } from './catalog/catalog';
import { CREDIT_CARD_TABLE, type CreditCard, type CreditCardBenefits } from './catalog/credit-cards.table';
import type { Plan } from './catalog/plans.catalog';
import { formatMoney, QUOTE_LIMITS } from '@expedition/contracts/rules';
import { MAX_TRIP_COST_CENTS, TIER_RANK, type Tier } from './catalog/rates.table';
import { checkEligibility } from './eligibility';
import { invalidInput, PricingError } from './errors';
import { centsToDollars, dollarsToCents } from './money';
import { normalizeText, tokens } from './text';

export type TripCostRange = 'under-10k' | '10k-20k' | 'over-20k';

export const TRIP_COST_RANGES: readonly TripCostRange[] = ['under-10k', '10k-20k', 'over-20k'];

/**
 * Trip cost assumed for each range when only the range is known: the band's upper edge (and USD 30,000 for
 * the open-ended top band), so the trip-cancellation requirement errs on the side of enough cover.
 */
export const TRIP_COST_RANGE_ASSUMED_USD: Readonly<Record<TripCostRange, number>> = {
  'under-10k': 10_000,
  '10k-20k': 20_000,
  'over-20k': 30_000,
};

/** Trip cost assumed when neither an amount nor a range is given (the lowest band's value). */
export const DEFAULT_ASSUMED_TRIP_COST_USD = 10_000;

export type CoverageKind = 'trip_cancellation' | 'emergency_medical' | 'medical_evacuation';

export interface CoverageGapInput {
  /** Destination slug, name or alias; unknown → PricingError `unknown_destination`. */
  readonly destination: string;
  /** The user's card in their own words ("CSR", "amex platinum"); unknown or missing is not an error. */
  readonly creditCardName?: string | null;
  /** Exact total trip cost for all travelers, in cents. Wins over `tripCostRange`. */
  readonly tripCostCents?: number | null;
  readonly tripCostRange?: TripCostRange | null;
  /** Travelers sharing the trip cost; scales per-person cancellation limits. Default 1. */
  readonly travelers?: number | null;
  /** When given, only plans this resident can buy close gaps. */
  readonly residence?: string | null;
  readonly state?: string | null;
}

export interface GapClosingPlan {
  readonly planId: string;
  readonly planName: string;
  readonly tier: Tier;
  /** The plan's limit for this coverage (for trip cancellation: per-traveler limit × travelers), USD. */
  readonly limitUsd: number;
}

export interface CoverageGap {
  readonly coverage: CoverageKind;
  readonly requiredUsd: number;
  readonly cardCoversUsd: number;
  readonly gapUsd: number;
  /** Purchasable plans for the destination that alone meet the requirement; cheapest tier first. */
  readonly closedBy: readonly GapClosingPlan[];
}

export interface CoverageGapResult {
  readonly destination: { readonly slug: string; readonly name: string };
  readonly card: {
    /** What the user typed, or null. */
    readonly input: string | null;
    readonly matched: boolean;
    readonly name?: string;
    readonly issuer?: string;
    readonly benefits?: CreditCardBenefits;
    readonly source?: string;
    readonly asOf?: string;
  };
  readonly tripCost: {
    readonly amountUsd: number | null;
    readonly range: TripCostRange | null;
    /** Trip cost used for the cancellation requirement, whole USD. */
    readonly assumedUsd: number;
    readonly basis: 'exact' | 'range' | 'default';
  };
  readonly travelers: number;
  /** Trip cancellation is for the whole trip; medical and evacuation are per person. */
  readonly requirements: {
    readonly tripCancellationUsd: number;
    readonly emergencyMedicalUsd: number;
    readonly evacuationUsd: number;
  };
  /** Only coverages the card leaves short. */
  readonly gaps: readonly CoverageGap[];
  readonly fullyCovered: boolean;
  /** Cheapest-tier purchasable plan that closes every gap (ties: lower basePrice, then id); null if none or no gap. */
  readonly recommendedPlanId: string | null;
  readonly summary: string;
  /** Present when the card was not recognized: the names a client can offer the user. */
  readonly knownCards?: readonly string[];
}

/**
 * Compares a credit card's travel benefits with what an expedition to the destination needs.
 *
 * Requirements: trip cancellation = the trip cost (exact, else the range's assumed value, else USD 10,000);
 * emergency medical and evacuation = the destination's per-person minimums. A card's per-person cancellation
 * limit is multiplied by the travelers (capped by its per-trip maximum). A gap exists where the card covers
 * less than required. A plan closes a gap when its own limit meets the whole requirement (card benefits are
 * usually secondary and conditional, so they are not stacked). Only purchasable plans (enabled, full or
 * deposit) count.
 */
export function analyzeCoverageGap(input: CoverageGapInput): CoverageGapResult {
  const destination = findDestination(input.destination ?? '');
  if (!destination) {
    throw new PricingError('unknown_destination', `Unknown destination "${input.destination}".`, 'destination');
  }
  const travelers = requireTravelers(input.travelers);
  const tripCost = resolveTripCost(input.tripCostCents, input.tripCostRange);
  const cardInput = input.creditCardName?.trim() ? input.creditCardName.trim() : null;
  const card = cardInput ? matchCreditCard(cardInput) : undefined;
  const requirements = {
    tripCancellationUsd: tripCost.assumedUsd,
    emergencyMedicalUsd: destination.requirements.emergencyMedicalUsd,
    evacuationUsd: destination.requirements.medicalEvacuationUsd,
  };
  const plans = allPlans().filter(
    (p) =>
      isPurchasable(p) &&
      p.destinations.includes(destination.slug) &&
      (!input.residence || checkEligibility(p, { residence: input.residence, state: input.state ?? null }).eligible),
  );
  const covers = cardCoverage(card, travelers);
  const gaps = (
    [
      gapFor('trip_cancellation', requirements.tripCancellationUsd, covers.trip_cancellation, plans, travelers),
      gapFor('emergency_medical', requirements.emergencyMedicalUsd, covers.emergency_medical, plans, travelers),
      gapFor('medical_evacuation', requirements.evacuationUsd, covers.medical_evacuation, plans, travelers),
    ] as const
  ).filter((g): g is CoverageGap => g !== null);
  const recommended = recommendForGaps(gaps, plans);
  return {
    destination: { slug: destination.slug, name: destination.name },
    card: card
      ? {
          input: cardInput,
          matched: true,
          name: card.name,
          issuer: card.issuer,
          benefits: card.benefits,
          source: card.source,
          asOf: card.asOf,
        }
      : { input: cardInput, matched: false },
    tripCost,
    travelers,
    requirements,
    gaps,
    fullyCovered: gaps.length === 0,
    recommendedPlanId: recommended?.id ?? null,
    summary: summarize(destination.name, card, gaps, recommended, tripCost.basis),
    ...(card ? {} : { knownCards: CREDIT_CARD_TABLE.map((c) => c.name) }),
  };
}

/**
 * Finds a card from free text. Exact match on a normalized name or alias first; otherwise the card whose name
 * or alias appears as a whole-word sequence in the text, the longest such phrase winning ("capital one venture x
 * rewards" → Venture X, not Venture). Two different cards tying on the longest phrase is ambiguous: no match.
 */
export function matchCreditCard(text: string): CreditCard | undefined {
  const wanted = normalizeText(text);
  if (wanted === '') return undefined;
  const exact = CREDIT_CARD_TABLE.find((c) => [c.name, ...c.aliases].some((n) => normalizeText(n) === wanted));
  if (exact) return exact;
  const words = tokens(text);
  let best: { card: CreditCard; length: number } | undefined;
  let tie = false;
  for (const card of CREDIT_CARD_TABLE) {
    const length = Math.max(0, ...[card.name, ...card.aliases].map((n) => phraseLengthIn(tokens(n), words)));
    if (length === 0) continue;
    if (!best || length > best.length) {
      best = { card, length };
      tie = false;
    } else if (length === best.length) {
      tie = true;
    }
  }
  return best && !tie ? best.card : undefined;
}

/** Token count of `phrase` when it occurs contiguously in `words`, else 0. */
function phraseLengthIn(phrase: readonly string[], words: readonly string[]): number {
  if (phrase.length === 0 || phrase.length > words.length) return 0;
  for (let start = 0; start + phrase.length <= words.length; start += 1) {
    if (phrase.every((w, i) => words[start + i] === w)) return phrase.length;
  }
  return 0;
}

function requireTravelers(value: number | null | undefined): number {
  if (value === undefined || value === null) return 1;
  if (!Number.isSafeInteger(value) || value < 1 || value > QUOTE_LIMITS.maxTravelers) {
    throw invalidInput('travelers', `travelers must be a whole number from 1 to ${QUOTE_LIMITS.maxTravelers}`);
  }
  return value;
}

function resolveTripCost(
  cents: number | null | undefined,
  range: TripCostRange | null | undefined,
): CoverageGapResult['tripCost'] {
  const knownRange = range === undefined || range === null ? null : range;
  if (knownRange !== null && !TRIP_COST_RANGES.includes(knownRange)) {
    throw invalidInput('tripCostRange', `tripCostRange must be one of ${TRIP_COST_RANGES.join(', ')}`);
  }
  if (cents !== undefined && cents !== null) {
    if (!Number.isSafeInteger(cents) || cents < 0 || cents > MAX_TRIP_COST_CENTS) {
      throw invalidInput(
        'tripCostCents',
        `tripCostCents must be a whole number of cents from 0 to ${MAX_TRIP_COST_CENTS.toLocaleString('en-US')}`,
      );
    }
    const amountUsd = centsToDollars(cents);
    return { amountUsd, range: knownRange, assumedUsd: Math.ceil(amountUsd), basis: 'exact' };
  }
  if (knownRange !== null) {
    return { amountUsd: null, range: knownRange, assumedUsd: TRIP_COST_RANGE_ASSUMED_USD[knownRange], basis: 'range' };
  }
  return { amountUsd: null, range: null, assumedUsd: DEFAULT_ASSUMED_TRIP_COST_USD, basis: 'default' };
}

function cardCoverage(card: CreditCard | undefined, travelers: number): Record<CoverageKind, number> {
  if (!card) return { trip_cancellation: 0, emergency_medical: 0, medical_evacuation: 0 };
  const { tripCancellation, emergencyMedicalUsd, evacuationUsd } = card.benefits;
  const cancellation =
    tripCancellation.basis === 'per_trip'
      ? tripCancellation.limitUsd
      : Math.min(tripCancellation.limitUsd * travelers, tripCancellation.perTripMaxUsd ?? Number.POSITIVE_INFINITY);
  return { trip_cancellation: cancellation, emergency_medical: emergencyMedicalUsd, medical_evacuation: evacuationUsd };
}

function planLimit(plan: Plan, kind: CoverageKind, travelers: number): number {
  if (kind === 'trip_cancellation') return plan.tripCancellationLimit * travelers;
  return kind === 'emergency_medical' ? plan.medicalExpenseLimit : plan.evacuationCoverage;
}

function byTierThenPrice(a: Plan, b: Plan): number {
  return TIER_RANK[a.tier] - TIER_RANK[b.tier] || a.basePrice - b.basePrice || a.id.localeCompare(b.id);
}

function gapFor(
  coverage: CoverageKind,
  requiredUsd: number,
  cardCoversUsd: number,
  plans: readonly Plan[],
  travelers: number,
): CoverageGap | null {
  const gapUsd = Math.max(0, requiredUsd - cardCoversUsd);
  if (gapUsd === 0) return null;
  const closedBy = plans
    .filter((p) => planLimit(p, coverage, travelers) >= requiredUsd)
    .sort(byTierThenPrice)
    .map((p) => ({ planId: p.id, planName: p.name, tier: p.tier, limitUsd: planLimit(p, coverage, travelers) }));
  return { coverage, requiredUsd, cardCoversUsd, gapUsd, closedBy };
}

function recommendForGaps(gaps: readonly CoverageGap[], plans: readonly Plan[]): Plan | undefined {
  if (gaps.length === 0) return undefined;
  return plans.filter((p) => gaps.every((g) => g.closedBy.some((c) => c.planId === p.id))).sort(byTierThenPrice)[0];
}

const COVERAGE_WORDS: Readonly<Record<CoverageKind, string>> = {
  trip_cancellation: 'trip cancellation',
  emergency_medical: 'emergency medical',
  medical_evacuation: 'medical evacuation',
};

function summarize(
  destinationName: string,
  card: CreditCard | undefined,
  gaps: readonly CoverageGap[],
  recommended: Plan | undefined,
  costBasis: CoverageGapResult['tripCost']['basis'],
): string {
  const costCaveat = costBasis === 'default' ? ' (trip cost not given: USD 10,000 assumed)' : '';
  if (gaps.length === 0) {
    return `${card?.name ?? 'Your card'} meets the ${destinationName} requirements for trip cancellation${costCaveat}, emergency medical and evacuation, subject to its terms (usually the trip must be paid with the card).`;
  }
  const subject = card ? `${card.name} leaves` : 'Without a recognized card there are';
  const list = gaps
    .map(
      (g) =>
        `${COVERAGE_WORDS[g.coverage]} (${formatMoney(dollarsToCents(g.gapUsd), 'USD', 'en-US', { trimZeroCents: true })} short)`,
    )
    .join(', ');
  const fix = recommended
    ? `${recommended.name} closes all of them.`
    : 'No single purchasable plan closes all of them; compare the plans listed for each gap.';
  return `${subject} gaps for ${destinationName}${costCaveat}: ${list}. ${fix}`;
}
