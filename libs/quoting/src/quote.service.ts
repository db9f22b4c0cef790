import { DAY_MS, EMBED_SANDBOX_QUOTE_ERROR, isoDay, type Mode } from '@expedition/contracts';
import type { PrismaClient, Quote, QuoteEstimate } from '@expedition/db';
import { priceQuote, type PricedQuote } from '@expedition/domain-pricing';
import { DEFAULT_LOCALE, type Locale } from '@expedition/i18n';
import { hashToken, randomToken, type Clock } from '@expedition/platform';
import { instantQuoteEligibility, offersOptions } from './options/instant-eligibility';
import { randomQuoteNumber } from './identifiers';
import { insertQuoteWithEstimates, type EstimateRow, type QuoteRow } from './quote-insert';
import { QuotingError } from './quoting-error';
import { sandboxQuoteRefusal } from './sandbox';

/** Quotes are offered for this long (or until departure, whichever comes first). */
export const QUOTE_VALIDITY_DAYS = 30;
/** Draws in one number series before the next series of the day (docs/decisions.md, "Quote numbers"). */
const DRAWS_PER_SERIES = 16;
/** `number_series` is a smallint: 32,768 series of 810,000 numbers a day, never reached. */
const LAST_NUMBER_SERIES = 32_767;

type UnnumberedRow = Omit<QuoteRow, 'quoteNumber' | 'quoteDay' | 'numberSeries'>;

export interface NewQuote {
  source: 'api' | 'embed' | 'acp';
  operatorId?: string | null;
  mode?: Mode;
  destination: string;
  startDate?: string | null;
  endDate?: string | null;
  durationDays?: number | null;
  tripCostCents: number;
  /** The trip cost's currency as given (default USD); pricing (domain-pricing) refuses what it cannot price. */
  currency?: string | null;
  travelers: number;
  /** null or 0 entries are unknown ages. */
  travelerAges?: readonly (number | null)[];
  residence: string;
  state?: string | null;
  depositPaidDate?: string | null;
  email?: string | null;
  name?: string | null;
  phone?: string | null;
  operatorName?: string | null;
  otherCountries?: readonly string[];
  /**
   * The traveler's language, negotiated by the channel (`negotiateLocale`: the request's locale field, then its
   * Accept-Language); English when not given. The e-mail, the certificate and the policy page use it.
   */
  locale?: Locale;
}

export interface CreatedQuote {
  quote: Quote;
  /** The bearer secret that authorises checkout links for this quote; returned once, stored only as a hash. */
  sessionId: string;
  estimates: QuoteEstimate[];
  pricing: PricedQuote;
}

export interface QuoteServiceDeps {
  prisma: PrismaClient;
  clock: Clock;
  newQuoteNumber?: () => string;
}

/**
 * Prices a trip with the domain engine and stores the quote with its estimates in one statement (quote-insert.ts). The quote row is
 * written once, complete: its currency is the one pricing accepted, and whether it is instant-eligible (and so
 * queued for bindable options, `options_status` pending) is decided here, from the pricing, in the same statement.
 * Pricing errors (unknown destination, a currency other than USD, impossible input) propagate as the domain's
 * `PricingError`; a sandbox value in test mode is refused first, as the QuotingError `sandbox_refusal`. Callers map both.
 */
export function createQuoteService(deps: QuoteServiceDeps) {
  const newQuoteNumber = deps.newQuoteNumber ?? randomQuoteNumber;
  // The series this process last wrote in, per day: once a day's series is crowded, later quotes start after it.
  let current = { day: '', series: 0 };

  async function create(input: NewQuote): Promise<CreatedQuote> {
    const now = deps.clock.now();
    const refused = sandboxQuoteRefusal(input);
    if (refused) throw new QuotingError('sandbox_refusal', EMBED_SANDBOX_QUOTE_ERROR, [refused]);
    const pricing = priceQuote({
      destination: input.destination,
      startDate: input.startDate ?? undefined,
      durationDays: input.durationDays ?? null,
      tripCostCents: input.tripCostCents,
      travelers: input.travelers,
      travelerAges: input.travelerAges ? [...input.travelerAges] : undefined,
      residence: input.residence,
      state: input.state ?? undefined,
      depositPaidDate: input.depositPaidDate ?? undefined,
      currency: input.currency ?? null,
      today: isoDay(now),
    });

    const startDate = input.startDate ? new Date(`${input.startDate}T00:00:00Z`) : null;
    const endDate = input.endDate
      ? new Date(`${input.endDate}T00:00:00Z`)
      : startDate
        ? new Date(startDate.getTime() + pricing.durationDays * DAY_MS)
        : null;
    const validUntil = new Date(now.getTime() + QUOTE_VALIDITY_DAYS * DAY_MS);
    const expiresAt = startDate && startDate > now && startDate < validUntil ? startDate : validUntil;
    const instantQuoteEligible =
      offersOptions(input.source) &&
      instantQuoteEligibility({ startDate: pricing.startDate, estimates: pricing.estimates }).eligible;

    // Handed to the caller once (it authorises a checkout link); only its hash is stored.
    const sessionId = randomToken('qs');
    const row: UnnumberedRow = {
      sessionIdHash: hashToken(sessionId),
      source: input.source,
      operatorId: input.operatorId ?? null,
      mode: input.mode ?? 'test',
      destinationSlug: pricing.destination.slug,
      otherCountries: [...(input.otherCountries ?? [])],
      startDate,
      endDate,
      durationDays: pricing.durationDays,
      durationDefaulted: pricing.durationDefaulted,
      tripCostCents: input.tripCostCents,
      currency: pricing.currency,
      travelers: input.travelers,
      travelerAges: pricing.travelerAges.map((a) => a ?? 0),
      residence: input.residence,
      state: input.state ?? null,
      depositPaidDate: input.depositPaidDate ? new Date(`${input.depositPaidDate}T00:00:00Z`) : null,
      email: input.email ?? null,
      name: input.name ?? null,
      phone: input.phone ?? null,
      operatorName: input.operatorName ?? null,
      locale: input.locale ?? DEFAULT_LOCALE,
      recommendedPlanId: pricing.recommendedPlanId,
      instantQuoteEligible,
      // Pending quotes are what the options worker produces bindable options for; the others never get any.
      optionsStatus: instantQuoteEligible ? 'pending' : 'not_eligible',
      expiresAt,
    };
    const estimates = pricing.estimates.map((e, rank) => ({
      planId: e.planId,
      premiumCents: e.premiumCents,
      currency: pricing.currency,
      travelerPremiumsCents: [...e.travelerPremiumsCents],
      confidence: e.confidence,
      isRecommended: e.isRecommended,
      rank,
      notes: e.notes,
      cfarEligible: e.cfarEligible,
    }));
    const inserted = await insertNumbered(isoDay(now), row, estimates);
    return { ...inserted, sessionId, pricing };
  }

  /**
   * Draws numbers until one is free among the quotes of the day, in the day's first number series that is not
   * crowded (docs/decisions.md, "Quote numbers"): sixteen taken draws in a row move to the next series, so a quote
   * is never refused for want of a number.
   */
  async function insertNumbered(day: string, row: UnnumberedRow, estimates: readonly EstimateRow[]) {
    const quoteDay = new Date(`${day}T00:00:00Z`);
    for (let series = current.day === day ? current.series : 0; series <= LAST_NUMBER_SERIES; series++) {
      for (let draw = 1; draw <= DRAWS_PER_SERIES; draw++) {
        const numbered = { ...row, quoteNumber: newQuoteNumber(), quoteDay, numberSeries: series };
        const inserted = await insertQuoteWithEstimates(deps.prisma, numbered, estimates);
        // null: the number was taken in this day and series, and nothing was written; draw another.
        if (!inserted) continue;
        current = { day, series };
        return inserted;
      }
    }
    throw new Error(`every quote number series of ${day} is taken`);
  }

  async function find(quoteId: string) {
    return deps.prisma.quote.findUnique({
      where: { id: quoteId },
      include: { estimates: { orderBy: { rank: 'asc' } } },
    });
  }

  return { create, find };
}

export type QuoteService = ReturnType<typeof createQuoteService>;
