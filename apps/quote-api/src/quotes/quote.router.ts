import { Router } from 'express';
import { quoteRequestSchemaAt, type Mode } from '@expedition/contracts';
import { dollarsToCents } from '@expedition/domain-pricing';
import { parseOrThrow } from '@expedition/http-kit';
import type { PrismaClient } from '@expedition/db';
import { isUuid, type Clock } from '@expedition/platform';
import type { QuoteService } from '@expedition/quoting';
import { toQuoteResponse } from './quote.mapper';
import { rethrowPricingError } from '../pricing-errors';

export function quoteRouter(deps: { quotes: QuoteService; prisma: PrismaClient; clock: Clock; mode: Mode }): Router {
  const router = Router();

  /**
   * The spec's `operator` attributes the quote to a registered, active operator only when it is that operator's id,
   * compared exactly: that operator then earns the commission and receives `policy.issued`. Names are display only
   * (kept as `operatorName`): matching them let `"%"` (an ILIKE wildcard) claim the demo operator's commission.
   */
  async function operatorWithId(operator: string | undefined): Promise<string | null> {
    if (!operator || !isUuid(operator)) return null;
    const found = await deps.prisma.operator.findFirst({ where: { id: operator, status: 'active' }, select: { id: true } });
    return found?.id ?? null;
  }

  router.post('/quotes', async (req, res) => {
    // The date window needs "today": the schema is built at the injected clock's instant.
    const body = parseOrThrow(quoteRequestSchemaAt(deps.clock.now()), req.body);
    const created = await deps.quotes
      .create({
        source: 'api',
        mode: deps.mode,
        operatorId: await operatorWithId(body.operator),
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
    res.json(toQuoteResponse(created.quote, created.sessionId, created.pricing));
  });

  return router;
}
