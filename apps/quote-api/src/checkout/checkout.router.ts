import express, { Router } from 'express';
import { z } from 'zod';
import { CheckoutRequestSchema } from '@expedition/contracts';
import { parseOrThrow } from '@expedition/http-kit';
import { readIdempotencyKey } from './checkout-idempotency';
import type { CheckoutService } from './checkout.service';
import { EMAIL_FIELD, renderCheckoutPage } from './checkout.page';
import type { CheckoutReceiptRepository } from './checkout-receipt.repository';
import { renderCheckoutReceipt } from './checkout-receipt.page';

export function checkoutApiRouter(deps: { checkout: CheckoutService }): Router {
  const router = Router();
  router.post('/checkout', async (req, res) => {
    const idempotencyKey = readIdempotencyKey(req.get('idempotency-key'));
    const body = parseOrThrow(CheckoutRequestSchema, req.body);
    const { link, replayed } = await deps.checkout.openOnce(body, idempotencyKey);
    // The link is a bearer secret: never kept by a shared cache.
    res.setHeader('Cache-Control', 'no-store');
    if (replayed) res.setHeader('Idempotent-Replayed', 'true');
    res.json(link);
  });
  return router;
}

/** How the page takes payment: our card form (simulated processor) or Stripe's Payment Element. */
export type CheckoutUi = { kind: 'card-form'; testMode: boolean } | { kind: 'stripe'; publishableKeys: { test?: string; live?: string } };

export function checkoutPageRouter(deps: { checkout: CheckoutService; ui: CheckoutUi; receipts: CheckoutReceiptRepository }): Router {
  const router = Router();
  const page = { payable: deps.ui.kind === 'card-form', testMode: deps.ui.kind === 'card-form' && deps.ui.testMode };
  router.get('/checkout/:token', async (req, res) => {
    const view = await deps.checkout.view(req.params.token);
    // Once money has moved, the link shows what it bought (or that the quote was bought elsewhere), never a form.
    if (view.state === 'paid' || view.state === 'open') {
      const receipt = await deps.receipts.forSession(view.session);
      if (receipt.kind !== 'none') return renderCheckoutReceipt(res, receipt);
    }
    if (view.state !== 'open' || deps.ui.kind !== 'stripe') return renderCheckoutPage(res, view, page);
    // Back from Stripe's redirect: the webhook is on its way; show progress rather than a second form.
    if (req.query['redirect_status'] === 'succeeded') return renderCheckoutPage(res, view, { ...page, processing: true });
    const hosted = await deps.checkout.hostedPayment(req.params.token);
    const publishableKey = hosted ? deps.ui.publishableKeys[hosted.mode] : undefined;
    renderCheckoutPage(res, view, hosted && publishableKey ? { ...page, stripe: { publishableKey, clientSecret: hosted.clientSecret } } : page);
  });
  // Stripe mode: the page stores the optional address on the link before Stripe's Payment Element pays (the payment
  // goes from the browser to Stripe, so no form of ours carries it). JSON answers, read by the page's script.
  router.post('/checkout/:token/email', express.urlencoded({ extended: false, limit: '4kb' }), async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const email = optionalEmail(req.body?.[EMAIL_FIELD]);
    if (email === INVALID || email === undefined) return res.status(400).json({ message: INVALID_EMAIL_MESSAGE });
    const stored = await deps.checkout.rememberEmail(String(req.params['token']), email);
    if (stored === 'stored') return res.status(204).end();
    const message = LINK_CLOSED_MESSAGE[stored];
    res.status(stored === 'unknown' ? 404 : stored === 'expired' ? 410 : 409).json({ message });
  });
  // A plain HTML form (works without JavaScript); the card number is never logged or stored.
  router.post(['/checkout/:token', '/checkout/:token/pay'], express.urlencoded({ extended: false, limit: '4kb' }), async (req, res) => {
    const token = String(req.params['token']);
    if (deps.ui.kind !== 'card-form') {
      return renderCheckoutPage(res, await deps.checkout.view(token), { ...page, error: 'Pay with the secure form on this page.' });
    }
    const cardNumber = typeof req.body?.cardNumber === 'string' ? req.body.cardNumber : '';
    const email = optionalEmail(req.body?.[EMAIL_FIELD]);
    if (email === INVALID) {
      const current = await deps.checkout.view(token);
      if (current.state !== 'open') return renderCheckoutPage(res, current, page);
      return renderCheckoutPage(res, current, { ...page, error: INVALID_EMAIL_MESSAGE, errorStatus: 400 });
    }
    const result = await deps.checkout.pay(token, cardNumber, email);
    if (result.outcome === 'paid') return res.redirect(303, `/checkout/${encodeURIComponent(token)}`);
    const view = await deps.checkout.view(token);
    // This link paid meanwhile (this was the second of two submits, and the first has finished): the same answer as
    // the first, so a refresh of either page never posts the form again. (A quote bought another way keeps its page.)
    if (view.state === 'paid' && view.session.status === 'paid') return res.redirect(303, `/checkout/${encodeURIComponent(token)}`);
    if (view.state !== 'open') return renderCheckoutPage(res, view, page);
    renderCheckoutPage(res, view, { ...page, error: result.message });
  });
  return router;
}

const INVALID = Symbol('invalid e-mail');
export const INVALID_EMAIL_MESSAGE = 'That e-mail address does not look right. Correct it, or leave the field empty (then no e-mail is sent). Nothing was charged.';
const EmailSchema = z.email().max(254);
/** Why a link takes no address any more (the page then reloads to show its current state). */
const LINK_CLOSED_MESSAGE = {
  unknown: 'This checkout link is not valid. Nothing was charged.',
  expired: 'This checkout link has expired. Nothing was charged; reload the page.',
  paid: 'This trip has already been paid for. Reload the page to see it.',
} as const;

/** The optional address typed on the page: undefined when empty, INVALID when it is not an address. */
function optionalEmail(value: unknown): string | undefined | typeof INVALID {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = EmailSchema.safeParse(value.trim());
  return parsed.success ? parsed.data : INVALID;
}
