import express, { Router, type Request } from 'express';
import { z } from 'zod';
import { CheckoutRequestSchema } from '@expedition/contracts';
import { parseOrThrow } from '@expedition/http-kit';
import { matchLocale, negotiateRenderLocale, type RenderLocale } from '@expedition/i18n';
import { checkoutMessages, type CheckoutMessages } from '@expedition/i18n/documents';
import { queryLocale } from '../documents/document-page';
import { readIdempotencyKey } from './checkout-idempotency';
import type { CheckoutService } from './checkout.service';
import { checkoutBrand, EMAIL_FIELD, renderCheckoutPage } from './checkout.page';
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
export type CheckoutUi =
  { kind: 'card-form'; testMode: boolean } | { kind: 'stripe'; publishableKeys: { test?: string; live?: string } };

export function checkoutPageRouter(deps: {
  checkout: CheckoutService;
  ui: CheckoutUi;
  receipts: CheckoutReceiptRepository;
}): Router {
  const router = Router();
  const page = { payable: deps.ui.kind === 'card-form', testMode: deps.ui.kind === 'card-form' && deps.ui.testMode };
  router.get('/checkout/:token', async (req, res) => {
    const view = await deps.checkout.view(req.params.token);
    const locale = pageLocale(req, view);
    const shown = { ...page, locale };
    // Once money has moved, the link shows what it bought (or that the quote was bought elsewhere), never a form.
    if (view.state === 'paid' || view.state === 'open') {
      const receipt = await deps.receipts.forSession(view.session);
      if (receipt.kind !== 'none')
        return renderCheckoutReceipt(res, receipt, locale, checkoutBrand(view.session.quote.operator));
    }
    if (view.state !== 'open' || deps.ui.kind !== 'stripe') return renderCheckoutPage(res, view, shown);
    // Back from Stripe's redirect: the webhook is on its way; show progress rather than a second form.
    if (req.query['redirect_status'] === 'succeeded')
      return renderCheckoutPage(res, view, { ...shown, processing: true });
    const hosted = await deps.checkout.hostedPayment(req.params.token);
    const publishableKey = hosted ? deps.ui.publishableKeys[hosted.mode] : undefined;
    renderCheckoutPage(
      res,
      view,
      hosted && publishableKey ? { ...shown, stripe: { publishableKey, clientSecret: hosted.clientSecret } } : shown,
    );
  });
  // Stripe mode: the page stores the optional address on the link before Stripe's Payment Element pays (the payment
  // goes from the browser to Stripe, so no form of ours carries it). JSON answers, read by the page's script.
  // The page shows `message` to the payer as it is: in the page's language (its `?locale=`, else the quote's).
  router.post('/checkout/:token/email', express.urlencoded({ extended: false, limit: '4kb' }), async (req, res) => {
    res.setHeader('Cache-Control', 'no-store');
    const token = String(req.params['token']);
    const refuse = async (status: 400 | 404 | 409 | 410, reason: keyof typeof EMAIL_REFUSALS) => {
      const locale = pageLocale(req, await deps.checkout.view(token));
      res.status(status).json({ message: checkoutMessages(locale).errors[EMAIL_REFUSALS[reason]]() });
    };
    const email = optionalEmail(req.body?.[EMAIL_FIELD]);
    if (email === INVALID || email === undefined) return refuse(400, 'invalid');
    const stored = await deps.checkout.rememberEmail(token, email);
    if (stored === 'stored') return res.status(204).end();
    await refuse(stored === 'unknown' ? 404 : stored === 'expired' ? 410 : 409, stored);
  });
  // A plain HTML form (works without JavaScript); the card number is never logged or stored.
  router.post(
    ['/checkout/:token', '/checkout/:token/pay'],
    express.urlencoded({ extended: false, limit: '4kb' }),
    async (req, res) => {
      const token = String(req.params['token']);
      // The page after a POST keeps the language the form was shown in (its URL's `?locale=`), else the quote's.
      const back = `/checkout/${encodeURIComponent(token)}${localeQuery(req)}`;
      if (deps.ui.kind !== 'card-form') {
        const view = await deps.checkout.view(token);
        const locale = pageLocale(req, view);
        return renderCheckoutPage(res, view, {
          ...page,
          locale,
          error: checkoutMessages(locale).errors.useSecureForm(),
        });
      }
      const cardNumber = typeof req.body?.cardNumber === 'string' ? req.body.cardNumber : '';
      const email = optionalEmail(req.body?.[EMAIL_FIELD]);
      if (email === INVALID) {
        const current = await deps.checkout.view(token);
        const locale = pageLocale(req, current);
        if (current.state !== 'open') return renderCheckoutPage(res, current, { ...page, locale });
        return renderCheckoutPage(res, current, {
          ...page,
          locale,
          error: checkoutMessages(locale).errors.invalidEmail(),
          errorStatus: 400,
        });
      }
      const result = await deps.checkout.pay(token, cardNumber, email);
      if (result.outcome === 'paid') return res.redirect(303, back);
      const view = await deps.checkout.view(token);
      // This link paid meanwhile (this was the second of two submits, and the first has finished): the same answer as
      // the first, so a refresh of either page never posts the form again. (A quote bought another way keeps its page.)
      // "This link" is read from the purchase's payment as well as from the link's status: the view's reads of the link
      // and of the purchase are separate statements, and the first may predate the commit the second sees.
      if (view.state === 'paid' && paidThroughThisLink(view.session)) return res.redirect(303, back);
      const locale = pageLocale(req, view);
      if (view.state !== 'open') return renderCheckoutPage(res, view, { ...page, locale });
      renderCheckoutPage(res, view, { ...page, locale, error: checkoutMessages(locale).errors[result.reason]() });
    },
  );
  return router;
}

type ViewedSession = Extract<Awaited<ReturnType<CheckoutService['view']>>, { state: 'paid' }>['session'];

function paidThroughThisLink(session: ViewedSession): boolean {
  return session.status === 'paid' || session.quote?.purchase?.payment?.checkoutSessionId === session.id;
}

/**
 * The language of a checkout-link page: `?locale=` (its language switch), else the one recorded on the quote (the
 * link inherits the quote's language), else — for a link we do not know — Accept-Language.
 */
function pageLocale(req: Request, view: Awaited<ReturnType<CheckoutService['view']>>): RenderLocale {
  const recorded = view.state === 'unknown' ? undefined : view.session.quote.locale;
  return negotiateRenderLocale({
    explicit: [queryLocale(req.query['locale']), recorded],
    acceptLanguage: req.get('accept-language'),
  });
}

/** `?locale=xx` of the request when it names a language we write, to keep it across a redirect. */
function localeQuery(req: Request): string {
  const asked = queryLocale(req.query['locale']);
  const match = asked ? matchLocale(asked, { pseudo: true }) : null;
  return match ? `?locale=${match}` : '';
}

const INVALID = Symbol('invalid e-mail');
const EmailSchema = z.email().max(254);
/** Why the page's address is refused: not an address, or a link that takes none any more (it then says to reload). */
const EMAIL_REFUSALS = {
  invalid: 'invalidEmail',
  unknown: 'linkUnknown',
  expired: 'linkExpired',
  paid: 'linkPaid',
} as const satisfies Record<string, keyof CheckoutMessages['errors']>;

/** The optional address typed on the page: undefined when empty, INVALID when it is not an address. */
function optionalEmail(value: unknown): string | undefined | typeof INVALID {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  const parsed = EmailSchema.safeParse(value.trim());
  return parsed.success ? parsed.data : INVALID;
}
