import { z } from 'zod';
import {
  EMAIL_MAX_LENGTH,
  EMBED_SANDBOX_QUOTE_ERROR_EMAIL,
  EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST,
  QUOTE_LIMITS as L,
} from '../rules';

/**
 * Tier 2 (the iframe quotes, "Buy" opens our hosted checkout in a new tab): POST /api/embed/checkout. Additive to
 * docs/contract.md: same gate, same CORS, same shared per-key budget. It creates exactly the 30-minute checkout link
 * that quote-api's POST /api/v1/checkout creates, for a quote of the key's own operator. Errors: `{ "error": "…" }`
 * with CORS (400; 409 when the quote is already purchased), the gate's bare 403 for a quote of another operator or an
 * unknown or malformed id (no existence oracle). Plan, mode, expiry and purchased messages are the payment routes'
 * (embed-payment.schema.ts); a bad or missing body is `EMBED_INVALID_FIELDS_ERROR`.
 */
/** The Tier 3 payment routes, for an operator whose integration tier is below 3. */
export const EMBED_PAYMENT_TIER_REQUIRED =
  'Payment inside the widget is not enabled for this operator (integration tier 3)';

export const EmbedCheckoutRequestSchema = z
  .object({
    quoteId: z.string().trim().min(1).max(200),
    planId: z.string().trim().min(1).max(100),
    /** Prefills the checkout page; defaults to the quote's email. */
    email: z.email().max(EMAIL_MAX_LENGTH).optional(),
    /** The traveler's name, shown on the checkout page. */
    name: z.string().trim().min(1).max(L.maxName).optional(),
  })
  .meta({ id: 'EmbedCheckoutRequest' });
export type EmbedCheckoutRequest = z.infer<typeof EmbedCheckoutRequestSchema>;

export const EmbedCheckoutResultSchema = z
  .object({
    /** quote-api's hosted checkout page for this quote and plan; a bearer link, valid 30 minutes. */
    checkoutUrl: z.url(),
    /** ISO 8601 instant when the link stops accepting payment. */
    expiresAt: z.iso.datetime(),
  })
  .meta({ id: 'EmbedCheckoutResult' });
export type EmbedCheckoutResult = z.infer<typeof EmbedCheckoutResultSchema>;

/**
 * The 400 message of the sandbox quote refusal (a TEST key and `EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST` or
 * `EMBED_SANDBOX_QUOTE_ERROR_EMAIL`; the sandbox inputs live in rules.ts). Payment failures use the processor's
 * decline test card (`TEST_CARDS.decline`) in test mode.
 */
export const EMBED_SANDBOX_QUOTE_ERROR = `Sandbox: this test quote is refused on purpose (trip cost ${EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST} or email ${EMBED_SANDBOX_QUOTE_ERROR_EMAIL})`;
