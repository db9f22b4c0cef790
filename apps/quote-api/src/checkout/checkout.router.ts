import { Router } from 'express';
import { CheckoutRequestSchema } from '@expedition/contracts';
import { parseOrThrow } from '@expedition/http-kit';
import type { CheckoutService } from './checkout.service';
import { renderCheckoutPage } from './checkout.page';

export function checkoutApiRouter(deps: { checkout: CheckoutService }): Router {
  const router = Router();
  router.post('/checkout', async (req, res) => {
    const body = parseOrThrow(CheckoutRequestSchema, req.body);
    res.json(await deps.checkout.open(body));
  });
  return router;
}

export function checkoutPageRouter(deps: { checkout: CheckoutService }): Router {
  const router = Router();
  router.get('/checkout/:token', async (req, res) => {
    renderCheckoutPage(res, await deps.checkout.view(req.params.token));
  });
  return router;
}
