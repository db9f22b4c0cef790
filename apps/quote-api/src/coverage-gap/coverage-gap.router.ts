import { Router } from 'express';
import { CoverageGapRequestSchema, QUOTE_DISCLAIMER } from '@expedition/contracts';
import { analyzeCoverageGap, dollarsToCents } from '@expedition/domain-pricing';
import { parseOrThrow } from '@expedition/http-kit';
import { rethrowPricingError } from '../pricing-errors';

export function coverageGapRouter(): Router {
  const router = Router();
  router.post('/coverage-gap', (req, res) => {
    const body = parseOrThrow(CoverageGapRequestSchema, req.body);
    try {
      const analysis = analyzeCoverageGap({
        destination: body.destination,
        creditCardName: body.creditCardName,
        tripCostCents: body.tripCost === undefined ? undefined : dollarsToCents(body.tripCost),
        tripCostRange: body.tripCostRange,
      });
      res.json({ ...analysis, disclaimer: QUOTE_DISCLAIMER });
    } catch (err) {
      rethrowPricingError(err);
    }
  });
  return router;
}
