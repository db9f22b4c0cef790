import { z } from 'zod';
import { CentsSchema, PaymentProblemSchema, PurchaseReceiptSchema, PurchaseRequestSchema } from '@expedition/contracts';

/**
 * The `purchase` tool carries MPP's "Payment" scheme as data: its first call answers the 402 challenge of
 * POST /api/v1/purchase as structured content; the second call passes the credential the agent's wallet built from it.
 */
export const McpPurchaseInputSchema = PurchaseRequestSchema.extend({
  credential: z
    .string()
    .trim()
    .min(1)
    .max(16_384)
    .optional()
    .meta({
      description:
        'Omit on the first call. On the second call: the MPP credential for the challenge you received, exactly what ' +
        'POST /api/v1/purchase takes in its Authorization header ("Payment <base64url JSON>"; the bare base64url ' +
        'part is accepted too). Built by your payment wallet from the challenge and a Shared Payment Token. Never ' +
        'invent one.',
    }),
});

const McpPaymentChallengeSchema = z.object({
  id: z.string(),
  realm: z.string(),
  method: z.string().meta({ description: 'Payment method: "stripe" (a Shared Payment Token).' }),
  intent: z.string().meta({ description: 'Payment intent: "charge".' }),
  request: z
    .string()
    .meta({ description: 'base64url JCS JSON {amount (minor units, a string), currency, externalId, methodDetails}.' }),
  expires: z.string().optional().meta({ description: 'RFC 3339; answer before this instant.' }),
  digest: z.string().optional(),
  opaque: z.string().optional(),
  description: z.string().optional(),
  wwwAuthenticate: z
    .string()
    .meta({ description: 'The same challenge as the WWW-Authenticate value of POST /api/v1/purchase.' }),
});

export const McpPurchaseOutputSchema = z.object({
  outcome: z.enum(['payment_required', 'purchased', 'already_paid']).meta({
    description:
      'payment_required: nothing was charged; pay `challenge` with your wallet and call again with `credential`. ' +
      'purchased: this call paid. already_paid: the quote was paid before; no new charge.',
  }),
  amountCents: CentsSchema.optional().meta({ description: 'The price bound into the challenge, minor units.' }),
  currency: z.string().optional(),
  challenge: McpPaymentChallengeSchema.optional(),
  problem: PaymentProblemSchema.optional().meta({ description: 'Why payment is (still) required (RFC 9457 problem).' }),
  receipt: PurchaseReceiptSchema.optional(),
  paymentReceipt: z
    .string()
    .optional()
    .meta({ description: 'The Payment-Receipt value (base64url JSON) of POST /api/v1/purchase.' }),
  disclaimer: z.string(),
});
export type McpPurchaseOutput = z.infer<typeof McpPurchaseOutputSchema>;
