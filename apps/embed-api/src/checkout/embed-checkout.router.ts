import type { IRouter, RequestHandler } from 'express';
import {
  EMBED_INVALID_FIELDS_ERROR,
  EMBED_PAYMENT_MODE_MISMATCH,
  EmbedCheckoutRequestSchema,
  type EmbedCheckoutResult,
} from '@expedition/contracts';
import { getEmbedContext, sendBareForbidden } from '@expedition/auth-publishable-key';
import type { PrismaClient } from '@expedition/db';
import { isUuid } from '@expedition/platform';
import { loadQuoteForCheckout, type CheckoutLinks } from '@expedition/quoting';
import { jsonBodyOr400, sendEmbedError } from '../http/embed-responses';
import { EMBED_CHECKOUT_PATH } from '../limits';
import { PLACEHOLDER_QUOTE_ID } from '../options/embed-options.router';

/**
 * POST /api/embed/checkout (Tiers 1 and 2; README "Tier 2 checkout links"): open at every tier, because the hosted
 * Tier 1 page buys through the same link (the tier decides only whether the iframe shows Buy). Gate (header key) → body → the quote
 * must be the key's operator's (else the gate's bare 403: unknown, malformed and foreign ids look the same) → same
 * mode as the key → the shared checkout-link lib opens quote-api's 30-minute checkout link. Its refusals (unknown plan,
 * priced on inquiry, purchased, expired) are answered by the app's mapping, as `{ error }` (http/embed-domain-errors.ts).
 */
export function addEmbedCheckoutRoute(
  app: IRouter,
  deps: { gate: RequestHandler; prisma: PrismaClient; links: CheckoutLinks },
): void {
  app.post(EMBED_CHECKOUT_PATH, deps.gate, jsonBodyOr400(), async (req, res) => {
    const context = getEmbedContext(req);
    const parsed = EmbedCheckoutRequestSchema.safeParse(req.body);
    if (!parsed.success) return sendEmbedError(res, EMBED_INVALID_FIELDS_ERROR);

    const body = parsed.data;
    const quoteId = isUuid(body.quoteId) ? body.quoteId : null;
    // A malformed id costs the same lookup as an unknown one (no timing oracle).
    const quote = await loadQuoteForCheckout(deps.prisma, quoteId ?? PLACEHOLDER_QUOTE_ID);
    if (!quoteId || !quote || quote.operatorId !== context.operatorId) return sendBareForbidden(res);
    if (quote.mode !== context.mode) return sendEmbedError(res, EMBED_PAYMENT_MODE_MISMATCH);

    const link: EmbedCheckoutResult = await deps.links.open(quote, {
      planId: body.planId,
      email: body.email,
      guestNames: body.name ? [body.name] : undefined,
    });
    req.log?.info({ keyId: context.keyId, quoteId: quote.id, planId: body.planId }, 'embed checkout link created');
    res.json(link);
  });
}
