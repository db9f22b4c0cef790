import { QUOTE_DISCLAIMER, type CoverageGapRequest } from '@expedition/contracts';
import { analyzeCoverageGap, dollarsToCents } from '@expedition/domain-pricing';
import { rethrowPricingError } from '../pricing-errors';

/** What a credit card's travel cover leaves open on a trip: POST /api/v1/coverage-gap and the MCP coverage_gap tool. */
export function coverageGap(body: CoverageGapRequest) {
  try {
    const analysis = analyzeCoverageGap({
      destination: body.destination,
      creditCardName: body.creditCardName,
      tripCostCents: body.tripCost === undefined ? undefined : dollarsToCents(body.tripCost),
      tripCostRange: body.tripCostRange,
    });
    return { ...analysis, disclaimer: QUOTE_DISCLAIMER };
  } catch (err) {
    rethrowPricingError(err);
  }
}
