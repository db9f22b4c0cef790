import { DAY_MS, EMBED_SANDBOX_QUOTE_ERROR, isoDay, type Mode } from '@expedition/contracts';
import type { PrismaClient, Quote, QuoteEstimate } from '@expedition/db';
import { priceQuote, type PricedQuote } from '@expedition/domain-pricing';
import { DEFAULT_LOCALE, type Locale } from '@expedition/i18n';
import { hashToken, randomToken, type Clock } from '@expedition/platform';
import { instantQuoteEligibility, offersOptions } from './options/instant-eligibility';
import { randomQuoteNumber } from './identifiers';
import { insertQuoteWithEstimates, type QuoteRow } from './quote-insert';
import { QuotingError } from './quoting-error';
import { sandboxQuoteRefusal } from './sandbox';

/** Quotes are offered for this long (or until departure, whichever comes first). */
export const QUOTE_VALIDITY_DAYS = 30;
const QUOTE_NUMBER_ATTEMPTS = 8;

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
    const row: Omit<QuoteRow, 'quoteNumber'> = {
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
    for (let attempt = 1; attempt <= QUOTE_NUMBER_ATTEMPTS; attempt++) {
      const inserted = await insertQuoteWithEstimates(
        deps.prisma,
        { ...row, quoteNumber: newQuoteNumber() },
        estimates,
      );
      // null: the quote number was taken, and nothing was written; draw another.
      if (inserted) return { ...inserted, sessionId, pricing };
    }
    throw new Error(`no free quote number in ${QUOTE_NUMBER_ATTEMPTS} draws`);
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
