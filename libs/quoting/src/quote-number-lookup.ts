import { DAY_MS, isoDay } from '@expedition/contracts';
import { parseIsoDay } from '@expedition/contracts/rules';
import type { PrismaClient, Quote } from '@expedition/db';
import type { Clock } from '@expedition/platform';
import { normalizeQuoteNumber } from './identifiers';
import { QUOTE_VALIDITY_DAYS } from './quote.service';

/**
 * Without a date, a number names the quotes of the last 60 days (today and the 59 before): a quote is held at most QUOTE_VALIDITY_DAYS, and
 * people still call about one for a while after it expired (docs/decisions.md, "Quote numbers").
 */
export const QUOTE_NUMBER_RECENT_DAYS = 2 * QUOTE_VALIDITY_DAYS;
/** More candidates than anyone reads out on a call: the caller is asked for the date instead. */
const MAX_CANDIDATES = 20;

export interface QuoteNumberQuery {
  /** As the person gives it: any case, spaces, with or without `EXP-` (normalizeQuoteNumber). */
  quoteNumber: string;
  /** The quote's day (UTC, YYYY-MM-DD), as the quote's e-mail and pages show it: with the number, at most one quote. */
  day?: string;
  /** The e-mail the quote was made with (compared without case). */
  email?: string;
  /** Only this operator's quotes (an operator looking up its own traveler's quote). */
  operatorId?: string;
}

/** `several`: newest first, at most 20; ask for the quote's date (or the e-mail) and look up again. */
export type QuoteNumberMatch = { kind: 'none' } | { kind: 'one'; quote: Quote } | { kind: 'several'; quotes: Quote[] };

/**
 * Finds the quote a person names by its number. A number alone is shared across days (docs/decisions.md, "Quote
 * numbers"), so it is looked up among the recent quotes only, and narrowed by what else the person knows: the day
 * (the unique index leaves one quote per number series, and a day needs a second series only past about 430,000
 * quotes), the e-mail, the operator. Served by that unique index: its first column is the number, which about a dozen
 * quotes share even at 10,000,000 quotes.
 */
export async function findQuoteByNumber(
  deps: { prisma: PrismaClient; clock: Clock },
  query: QuoteNumberQuery,
): Promise<QuoteNumberMatch> {
  const quoteNumber = normalizeQuoteNumber(query.quoteNumber);
  if (!quoteNumber) return { kind: 'none' };
  const day = query.day === undefined ? undefined : parseIsoDay(query.day);
  if (query.day !== undefined && day === undefined) return { kind: 'none' };
  const today = Date.parse(`${isoDay(deps.clock.now())}T00:00:00Z`);
  const quoteDay = day === undefined ? { gt: new Date(today - QUOTE_NUMBER_RECENT_DAYS * DAY_MS) } : new Date(day);
  const quotes = await deps.prisma.quote.findMany({
    where: {
      quoteNumber,
      quoteDay,
      ...(query.email ? { email: { equals: query.email.trim(), mode: 'insensitive' as const } } : {}),
      ...(query.operatorId ? { operatorId: query.operatorId } : {}),
    },
    orderBy: [{ quoteDay: 'desc' }, { createdAt: 'desc' }, { id: 'asc' }],
    take: MAX_CANDIDATES,
  });
  const [only, ...others] = quotes;
  if (!only) return { kind: 'none' };
  return others.length === 0 ? { kind: 'one', quote: only } : { kind: 'several', quotes };
}
