import { Prisma, type PrismaClient, type Quote, type QuoteEstimate } from '@expedition/db';
import { listPlans, priceQuote, type PricedQuote } from '@expedition/domain-pricing';
import type { Clock } from './clock';
import { isoDay } from './clock';
import { randomQuoteNumber, randomToken } from './identifiers';

/** Quotes are offered for this long (or until departure, whichever comes first). */
export const QUOTE_VALIDITY_DAYS = 30;
const QUOTE_NUMBER_ATTEMPTS = 8;

export interface NewQuote {
  source: 'api' | 'embed' | 'acp';
  operatorId?: string | null;
  mode?: 'test' | 'live';
  destination: string;
  startDate?: string | null;
  endDate?: string | null;
  durationDays?: number | null;
  tripCostCents: number;
  currency?: string;
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
}

export interface CreatedQuote {
  quote: Quote;
  estimates: QuoteEstimate[];
  pricing: PricedQuote;
}

export interface QuoteServiceDeps {
  prisma: PrismaClient;
  clock: Clock;
  newQuoteNumber?: () => string;
}

/**
 * Prices a trip with the domain engine and stores the quote with its estimates in one transaction. Pricing errors
 * (unknown destination, impossible input) propagate as the domain's `PricingError`; callers map them.
 */
export function createQuoteService(deps: QuoteServiceDeps) {
  const newQuoteNumber = deps.newQuoteNumber ?? randomQuoteNumber;

  async function create(input: NewQuote): Promise<CreatedQuote> {
    const now = deps.clock.now();
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
      today: isoDay(now),
    });

    const startDate = input.startDate ? new Date(`${input.startDate}T00:00:00Z`) : null;
    const endDate = input.endDate
      ? new Date(`${input.endDate}T00:00:00Z`)
      : startDate
        ? new Date(startDate.getTime() + pricing.durationDays * 86_400_000)
        : null;
    const validUntil = new Date(now.getTime() + QUOTE_VALIDITY_DAYS * 86_400_000);
    const expiresAt = startDate && startDate > now && startDate < validUntil ? startDate : validUntil;

    for (let attempt = 1; ; attempt++) {
      try {
        return await deps.prisma.$transaction(async (tx) => {
          const quote = await tx.quote.create({
            data: {
              quoteNumber: newQuoteNumber(),
              sessionId: randomToken('qs'),
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
              currency: input.currency ?? 'USD',
              travelers: input.travelers,
              travelerAges: pricing.travelerAges.map((a) => a ?? 0),
              residence: input.residence,
              state: input.state ?? null,
              depositPaidDate: input.depositPaidDate ? new Date(`${input.depositPaidDate}T00:00:00Z`) : null,
              email: input.email ?? null,
              name: input.name ?? null,
              phone: input.phone ?? null,
              operatorName: input.operatorName ?? null,
              recommendedPlanId: pricing.recommendedPlanId,
              // Only embed quotes get bindable options (produced by the options worker); others never will.
              optionsStatus: input.source === 'embed' ? 'pending' : 'not_eligible',
              expiresAt,
            },
          });
          // One statement writes and returns the rows (RETURNING): no second read on the quote-creation path.
          const inserted = await tx.quoteEstimate.createManyAndReturn({
            data: pricing.estimates.map((e, rank) => ({
              quoteId: quote.id,
              planId: e.planId,
              premiumCents: e.premiumCents,
              currency: quote.currency,
              travelerPremiumsCents: [...e.travelerPremiumsCents],
              confidence: e.confidence,
              isRecommended: e.isRecommended,
              rank,
              notes: e.notes,
              cfarEligible: e.cfarEligible,
            })),
          });
          const estimates = inserted.sort((a, b) => a.rank - b.rank);
          return { quote, estimates, pricing };
        });
      } catch (err) {
        if (attempt < QUOTE_NUMBER_ATTEMPTS && isUniqueViolation(err, 'quoteNumber')) continue;
        throw err;
      }
    }
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

function isUniqueViolation(err: unknown, field: string): boolean {
  if (!(err instanceof Prisma.PrismaClientKnownRequestError) || err.code !== 'P2002') return false;
  const target = JSON.stringify(err.meta ?? {});
  return target.includes(field) || target.includes('quote_number');
}

/**
 * Keeps the `Plan` reference rows in step with the catalog in code, so estimates, purchases and policies have a
 * foreign key to what was sold. Idempotent and safe to run from several replicas at once.
 */
export async function syncCatalog(prisma: PrismaClient, catalogVersion: string): Promise<number> {
  const plans = listPlans({ includeDisabled: true });
  await prisma.$transaction(
    plans.map((p) => {
      const row = {
        name: p.name,
        carrier: p.carrier,
        brand: p.brand,
        tier: p.tier,
        destinations: [...p.destinations],
        availabilityMode: p.availabilityMode,
        enabled: p.enabled,
        catalogVersion,
      };
      return prisma.plan.upsert({ where: { id: p.id }, create: { id: p.id, ...row }, update: row });
    }),
  );
  return plans.length;
}
