import { Router } from 'express';
import { QuoteRequestSchema } from '@expedition/contracts';
import { dollarsToCents } from '@expedition/domain-pricing';
import { parseOrThrow } from '@expedition/http-kit';
import type { PrismaClient } from '@expedition/db';
import type { QuoteService } from '@expedition/quoting';
import { toQuoteResponse } from './quote.mapper';
import { rethrowPricingError } from '../pricing-errors';

export function quoteRouter(deps: { quotes: QuoteService; prisma: PrismaClient; mode: 'test' | 'live' }): Router {
  const router = Router();

  /**
   * The spec's `operator` (the tour operator's name) attributes the quote to a registered, active operator when it
   * names one exactly (case-insensitive): that operator then earns the commission and receives `policy.issued`.
   * Any other name is kept as free text.
   */
  async function operatorNamed(name: string | undefined): Promise<string | null> {
    if (!name) return null;
    const found = await deps.prisma.operator.findFirst({
      where: { name: { equals: name.trim(), mode: 'insensitive' }, status: 'active' },
      select: { id: true },
    });
    return found?.id ?? null;
  }

  router.post('/quotes', async (req, res) => {
    const body = parseOrThrow(QuoteRequestSchema, req.body);
    const created = await deps.quotes
      .create({
        source: 'api',
        mode: deps.mode,
        operatorId: await operatorNamed(body.operator),
        destination: body.destination,
        startDate: body.startDate,
        durationDays: body.durationDays,
        tripCostCents: dollarsToCents(body.tripCost),
        currency: body.currency,
        travelers: body.travelers,
        travelerAges: body.travelerAges,
        residence: body.residence,
        state: body.state,
        depositPaidDate: body.depositPaidDate,
        email: body.email,
        operatorName: body.operator,
      })
      .catch(rethrowPricingError);
    res.json(toQuoteResponse(created.quote, created.pricing));
  });

  return router;
}
