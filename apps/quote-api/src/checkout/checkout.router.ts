import express, { Router } from 'express';
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

export function checkoutPageRouter(deps: { checkout: CheckoutService; payable: boolean; testMode: boolean }): Router {
  const router = Router();
  const page = { payable: deps.payable, testMode: deps.testMode };
  router.get('/checkout/:token', async (req, res) => {
    renderCheckoutPage(res, await deps.checkout.view(req.params.token), page);
  });
  // A plain HTML form (works without JavaScript); the card number is never logged or stored.
  router.post('/checkout/:token/pay', express.urlencoded({ extended: false, limit: '4kb' }), async (req, res) => {
    const token = req.params.token;
    const cardNumber = typeof req.body?.cardNumber === 'string' ? req.body.cardNumber : '';
    const result = await deps.checkout.pay(token, cardNumber);
    if (result.outcome === 'paid') return res.redirect(303, `/checkout/${encodeURIComponent(token)}`);
    const view = await deps.checkout.view(token);
    if (view.state !== 'open') return renderCheckoutPage(res, view, page);
    renderCheckoutPage(res, view, { ...page, error: result.message });
  });
  return router;
}
