import { z } from 'zod';

export const CheckoutRequestSchema = z
  .object({
    quoteId: z.string().trim().min(1).max(100),
    planId: z.string().trim().min(1).max(100),
    sessionId: z.string().trim().min(1).max(200).meta({ description: 'The sessionId returned by the quote.' }),
    email: z.email().max(254).optional(),
    guestNames: z.array(z.string().trim().min(1).max(200)).max(20).optional(),
    agentSummary: z.string().trim().max(4000).optional().meta({ description: 'Conversation summary shown on checkout.' }),
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

/** Checkout links live exactly this long (SERVICE-SPEC §8). */
export const CHECKOUT_LINK_TTL_MS = 30 * 60 * 1000;
