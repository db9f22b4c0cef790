import type { EmbedQuoteRequest, EmbedQuoteResult } from '@expedition/contracts';
import type { PrismaClient } from '@expedition/db';
import { createQuoteService, instantQuoteEligibility, type Clock } from '@expedition/quoting';
import { type Attribution, toNewQuote } from './embed-quote.input';

export interface EmbedQuoteServiceDeps {
  prisma: PrismaClient;
  clock: Clock;
  /** Called after a quote is stored; the composition root kicks the options worker with it (never required). */
  onQuoteCreated?: (quoteId: string) => void;
}

/**
 * Creates an embed quote: prices and stores it with its estimates (quoting lib, one transaction), then records
 * whether it is instant-eligible and queues options generation (`options_status` pending) or parks it
 * (`not_eligible`). Generation itself is the options worker's job, so this stays fast and any replica can finish it.
 * If the second write is lost (crash), the quote is still `pending` and the worker re-checks eligibility itself.
 */
export function createEmbedQuoteService(deps: EmbedQuoteServiceDeps) {
  const quotes = createQuoteService({ prisma: deps.prisma, clock: deps.clock });

  async function create(body: EmbedQuoteRequest, who: Attribution): Promise<EmbedQuoteResult> {
    const input = toNewQuote(body, who, deps.clock.now());
    const { quote, estimates } = await quotes.create(input);
    const { eligible } = instantQuoteEligibility({ startDate: quote.startDate, estimates });
    await deps.prisma.quote.update({
      where: { id: quote.id },
      data: { instantQuoteEligible: eligible, optionsStatus: eligible ? 'pending' : 'not_eligible' },
    });
    if (eligible) deps.onQuoteCreated?.(quote.id);
    return { quoteId: quote.id, quoteNumber: quote.quoteNumber, instantQuoteEligible: eligible };
  }

  return { create };
}

export type EmbedQuoteService = ReturnType<typeof createEmbedQuoteService>;
