import { z } from 'zod';
import { EMAIL_MAX_LENGTH, QUOTE_LIMITS as L } from '../rules';

export const CheckoutRequestSchema = z
  .object({
    quoteId: z.string().trim().min(1).max(100),
    planId: z.string().trim().min(1).max(100),
    sessionId: z.string().trim().min(1).max(200).meta({ description: 'The sessionId returned by the quote.' }),
    email: z.email().max(EMAIL_MAX_LENGTH).optional(),
    guestNames: z.array(z.string().trim().min(1).max(L.maxName)).max(L.maxTravelers).optional(),
    agentSummary: z
      .string()
      .trim()
      .max(4000)
      .optional()
      .meta({ description: 'Conversation summary shown on checkout.' }),
  })
  .meta({ id: 'CheckoutRequest' });
export type CheckoutRequest = z.infer<typeof CheckoutRequestSchema>;

export const CheckoutResponseSchema = z
  .object({
    checkoutUrl: z.url().meta({ description: 'Secure link where the human pays; valid 30 minutes.' }),
    expiresAt: z.string().optional().meta({ description: 'RFC 3339 instant when the link stops working.' }),
  })
  .meta({ id: 'CheckoutResponse' });
export type CheckoutResponse = z.infer<typeof CheckoutResponseSchema>;

/** Checkout links live exactly this long (docs/contract.md, Limits). */
export const CHECKOUT_LINK_TTL_MS = 30 * 60 * 1000;
