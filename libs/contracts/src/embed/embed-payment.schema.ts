import { z } from 'zod';
import { ModeSchema } from '../common.schema';

/**
 * Tier 3 (in-iframe checkout) payment routes of the embed API. Additive to the embed routes of docs/contract.md: same
 * gate, same CORS, same shared per-key budget as the two public routes. Route failures after the gate are `{ "error":
 * "…" }` with CORS (400, or 409 when the quote is already paid); a quote or payment the key's operator does not own is
 * the gate's bare 403 (no existence oracle). A bad or missing body is `EMBED_INVALID_FIELDS_ERROR`
 * (embed-quote.schema).
 */
export const EMBED_PAYMENT_OPTIONS_NOT_READY = 'Options are not ready for this quote';
export const EMBED_PAYMENT_PLAN_NOT_OFFERED = "Plan is not among this quote's options";
export const EMBED_PAYMENT_PLAN_NOT_PURCHASABLE = 'This plan cannot be bought online';
export const EMBED_PAYMENT_QUOTE_EXPIRED = 'This quote has expired';
export const EMBED_PAYMENT_MODE_MISMATCH = 'Pay a test quote with a test key and a live quote with a live key';
export const EMBED_PAYMENT_ALREADY_PURCHASED = 'This quote is already purchased';
/** 409: another payment of the same quote (another channel, another tab) holds its payment claim right now. */
export const EMBED_PAYMENT_IN_PROGRESS = 'A payment for this quote is in progress; try again in a moment';
export const EMBED_PAYMENT_UNAVAILABLE = 'Payment could not be started';
export const EMBED_PAYMENT_NOT_CONFIRMABLE = 'This payment is already confirmed or awaiting authentication';
export const EMBED_PAYMENT_CONFIRM_FAILED = 'Payment could not be confirmed';
export const EMBED_PAYMENT_CONFIRM_USE_STRIPE = 'Confirm this payment with Stripe.js';
export const EMBED_PAYMENT_NOT_AWAITING_AUTHENTICATION = 'This payment is not awaiting authentication';

export const EmbedPaymentStartRequestSchema = z
  .object({
    quoteId: z.string().trim().min(1).max(200),
    planId: z.string().trim().min(1).max(100),
  })
  .meta({ id: 'EmbedPaymentStartRequest' });
export type EmbedPaymentStartRequest = z.infer<typeof EmbedPaymentStartRequestSchema>;

export const EmbedPaymentStartResultSchema = z
  .object({
    paymentId: z.string(),
    /** Browser credential for Stripe.js `confirmCardPayment`; not a server secret. */
    clientSecret: z.string(),
    amountCents: z.number().int().positive().meta({ description: "The option's premium, minor units." }),
    currency: z.string(),
    provider: z.enum(['simulated', 'stripe']),
    mode: ModeSchema,
    /** Present with provider `stripe`: the publishable key of `mode` for Stripe.js. */
    stripePublishableKey: z.string().optional(),
  })
  .meta({ id: 'EmbedPaymentStartResult' });
export type EmbedPaymentStartResult = z.infer<typeof EmbedPaymentStartResultSchema>;

export const EmbedPaymentConfirmRequestSchema = z
  .object({
    paymentId: z.string().trim().min(1).max(255),
    /** Simulated processor: a magic test card number (spaces/dashes allowed) or a `pm_card_*` id. */
    paymentMethod: z.string().trim().min(1).max(100),
  })
  .meta({ id: 'EmbedPaymentConfirmRequest' });
export type EmbedPaymentConfirmRequest = z.infer<typeof EmbedPaymentConfirmRequestSchema>;

/** Simulated processor only: answers the 3-D Secure challenge of a `requires_action` payment, as the cardholder would. */
export const EmbedPaymentAuthenticateRequestSchema = z
  .object({
    paymentId: z.string().trim().min(1).max(255),
    approve: z.boolean(),
  })
  .meta({ id: 'EmbedPaymentAuthenticateRequest' });
export type EmbedPaymentAuthenticateRequest = z.infer<typeof EmbedPaymentAuthenticateRequestSchema>;

/** Answer of both the confirm and the authenticate route. */
export const EmbedPaymentConfirmResultSchema = z
  .object({
    paymentId: z.string(),
    status: z.enum(['pending', 'requires_action', 'processing', 'succeeded', 'failed', 'canceled']),
    /** What the iframe needs for `payment.succeeded` (widget events). */
    quoteId: z.string(),
    planId: z.string(),
    amountCents: z.number().int().positive(),
    currency: z.string(),
    failureCode: z.string().optional(),
    declineCode: z.string().optional(),
    failureMessage: z.string().optional(),
    /**
     * With `succeeded`, once the policy is issued (simulated processor: in this very answer). Only on the answer of the
     * confirm (or authenticate) call that paid: the iframe's buyer. The certificate link carries the policy's token.
     */
    policyNumber: z.string().optional(),
    accessToken: z.string().optional(),
    documentUrl: z.string().optional(),
  })
  .meta({ id: 'EmbedPaymentConfirmResult' });
export type EmbedPaymentConfirmResult = z.infer<typeof EmbedPaymentConfirmResultSchema>;
