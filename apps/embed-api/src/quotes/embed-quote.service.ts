import type { EmbedQuoteRequest, EmbedQuoteResult } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import type { Clock } from '@expedition/platform';
import { createQuoteService } from '@expedition/quoting';
import { type Attribution, toNewQuote } from './embed-quote.input';

export interface EmbedQuoteServiceDeps {
  prisma: PrismaClient;
  clock: Clock;
  /** Called after a quote is stored; the composition root kicks the options worker with it (never required). */
  onQuoteCreated?: (quoteId: string) => void;
}

/**
 * Creates an embed quote through the quoting lib, which prices it, decides whether it is instant-eligible and stores
 * it with its estimates in one transaction (`options_status` pending, or `not_eligible`). Generating the options is
 * the options worker's job, so this stays fast and any replica can finish it.
 */
export function createEmbedQuoteService(deps: EmbedQuoteServiceDeps) {
  const quotes = createQuoteService({ prisma: deps.prisma, clock: deps.clock });

  async function create(body: EmbedQuoteRequest, who: Attribution): Promise<EmbedQuoteResult> {
    const { quote } = await quotes.create(toNewQuote(body, who, deps.clock.now()));
    if (quote.instantQuoteEligible) deps.onQuoteCreated?.(quote.id);
    return { quoteId: quote.id, quoteNumber: quote.quoteNumber, instantQuoteEligible: quote.instantQuoteEligible };
  }

  return { create };
}

export type EmbedQuoteService = ReturnType<typeof createEmbedQuoteService>;
