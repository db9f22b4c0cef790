import { Router } from 'express';
import { PlanIdParamsSchema, ProductListQuerySchema } from '@expedition/contracts';
import { findDestination, getPlan, listDestinations, listPlans } from '@expedition/domain-pricing';
import { AppError, parseOrThrow } from '@expedition/http-kit';
import { toDestinationDto, toPlanDetails, toPlanSummary } from './catalog.mapper';

/** The catalog is code (reviewed, versioned data in domain-pricing): these routes never touch the database. */
export function catalogRouter(deps: { publicUrl: string }): Router {
  const router = Router();

  router.get('/destinations', (_req, res) => {
    res.json({ destinations: listDestinations().map(toDestinationDto) });
  });

  router.get('/products', (req, res) => {
    const query = parseOrThrow(ProductListQuerySchema, req.query, 'query');
    const destination = query.destination ? findDestination(query.destination) : undefined;
    if (query.destination && !destination) {
      throw new AppError(400, 'unknown_destination', `Unknown destination "${query.destination}"`, [
        {
          path: 'destination',
          message: `use one of: ${listDestinations()
            .map((d) => d.slug)
            .join(', ')}`,
        },
      ]);
    }
    const plans = listPlans({
      destination: destination?.slug,
      residence: query.residence,
      state: query.state,
      tier: query.tier,
      includeDisabled: query.include_disabled,
    });
    res.json({
      destination: destination?.slug ?? 'all',
      plansCount: plans.length,
      plans: plans.map((p) => toPlanSummary(p)),
    });
  });

  router.get('/products/:planId', (req, res) => {
    const { planId } = parseOrThrow(PlanIdParamsSchema, req.params, 'path');
    const plan = getPlan(planId);
    if (!plan) throw AppError.notFound('plan_not_found', `No plan with id "${planId}"`);
    res.json(toPlanDetails(plan, deps.publicUrl));
  });

  return router;
}
