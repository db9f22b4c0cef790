import { Router } from 'express';
import { PlanIdParamsSchema } from '@expedition/contracts';
import { AppError, parseOrThrow } from '@expedition/http-kit';
import type { CatalogService } from './catalog.service';

/** GET /api/v1/destinations, /products and /products/{planId}. */
export function catalogRouter(deps: { catalog: CatalogService }): Router {
  const router = Router();

  router.get('/destinations', (_req, res) => {
    res.json(deps.catalog.destinations());
  });

  router.get('/products', (req, res) => {
    res.json(deps.catalog.products(req.query, 'query').list);
  });

  router.get('/products/:planId', (req, res) => {
    const { planId } = parseOrThrow(PlanIdParamsSchema, req.params, 'path');
    const plan = deps.catalog.plan(planId);
    if (!plan) throw AppError.notFound('plan_not_found', `No plan with id "${planId}"`);
    res.json(plan);
  });

  return router;
}
