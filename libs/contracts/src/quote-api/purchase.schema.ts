import { z } from 'zod';
import { CentsSchema } from '../common.schema';

export const PurchaseRequestSchema = z
  .object({
    quoteId: z.string().trim().min(1).max(100).meta({ description: 'From the quote.' }),
    planId: z.string().trim().min(1).max(100).meta({ description: "From the quote's plans array." }),
  })
  .meta({ id: 'PurchaseRequest' });
export type PurchaseRequest = z.infer<typeof PurchaseRequestSchema>;

export const PurchaseReceiptSchema = z
  .object({
    status: z.enum(['purchased', 'already_paid']),
    quoteId: z.string(),
    quoteNumber: z.string(),
    planId: z.string().optional(),
    planName: z.string(),
    amountCharged: z.number().meta({ description: 'USD, 2 decimals.' }),
    amountChargedCents: CentsSchema.optional(),
    currency: z.string(),
    paymentReference: z.string().optional(),
    nextSteps: z.string(),
    policyNumber: z.string().optional().meta({ description: 'The policy issued for this quote, once it is issued.' }),
    accessToken: z
      .string()
      .optional()
      .meta({
        description:
          "The policy's bearer token (`pat_…`) for GET /api/v1/policies/{policyNumber} and the certificate. Only to the " +
          'buyer: the request that paid, its Idempotency-Key replay, or a retry carrying the very credential that paid. ' +
          'An `already_paid` answer to anyone else names the policy number but carries no token.',
      }),
    documentUrl: z.string().optional().meta({
      description: 'The certificate of insurance (PDF), with the token in the URL; present with `accessToken`.',
    }),
  })
  .meta({ id: 'PurchaseReceipt' });
export type PurchaseReceipt = z.infer<typeof PurchaseReceiptSchema>;

/** RFC 9457 problem details used on 402 (and 400 method-unsupported) of /purchase (MPP). */
export const PaymentProblemSchema = z
  .object({
    type: z.string().meta({ example: 'https://paymentauth.org/problems/payment-required' }),
    title: z.string(),
    status: z.number().int().min(400).max(599).meta({ description: 'HTTP status of this response: 402, or 400.' }),
    detail: z.string().optional(),
    challengeId: z.string().optional(),
  })
  .meta({ id: 'PaymentProblem' });
