import { Router } from 'express';
import { QuoteRequestSchema } from '@expedition/contracts';
import { dollarsToCents } from '@expedition/domain-pricing';
import { parseOrThrow } from '@expedition/http-kit';
import type { QuoteService } from '@expedition/quoting';
import { toQuoteResponse } from './quote.mapper';
import { rethrowPricingError } from '../pricing-errors';

export function quoteRouter(deps: { quotes: QuoteService }): Router {
  const router = Router();

  router.post('/quotes', async (req, res) => {
    const body = parseOrThrow(QuoteRequestSchema, req.body);
    const created = await deps.quotes
      .create({
        source: 'api',
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
