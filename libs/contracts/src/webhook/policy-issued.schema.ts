import { z } from 'zod';
import { ModeSchema } from '../common.schema';

/**
 * Body of the `policy.issued` webhook. Flat on purpose: `eventId`, `premiumCents` and `commissionCents` sit at the top
 * level as docs/contract.md (Webhook: policy.issued) names them. Money is integer minor units. Receivers dedupe on
 * `eventId` and ignore fields they do not know (new optional fields ship without notice).
 */
export const PolicyIssuedPayloadSchema = z
  .object({
    eventId: z.string().meta({ description: 'Stable across retries; deduplicate on it.' }),
    type: z.literal('policy.issued'),
    test: z
      .literal(true)
      .optional()
      .meta({
        description:
          'Present (true) only on a test event sent from the operator portal (eventId evt_test_…): sample data, no policy, ' +
          'never a sale or a commission. Absent on real events.',
      }),
    createdAt: z.string().meta({ description: 'RFC 3339 instant the event was created.' }),
    mode: ModeSchema,
    operatorId: z.string(),
    policyId: z.string(),
    policyNumber: z.string(),
    quoteId: z.string(),
    quoteNumber: z.string(),
    planId: z.string(),
    planName: z.string(),
    destination: z.string(),
    premiumCents: z.number().int().nonnegative(),
    commissionCents: z.number().int().nonnegative(),
    commissionRateBps: z.number().int().nonnegative(),
    currency: z.string(),
    travelers: z.number().int().positive(),
    startDate: z.string().nullable(),
    endDate: z.string().nullable(),
    issuedAt: z.string(),
    documentUrl: z
      .string()
      .optional()
      .meta({
        description:
          "The policy's certificate of insurance (PDF) at an unguessable URL (it carries the policy's access token): " +
          'hand it to the traveler, never publish it. Absent on test events.',
      }),
  })
  .meta({ id: 'PolicyIssuedPayload' });
export type PolicyIssuedPayload = z.infer<typeof PolicyIssuedPayloadSchema>;

export const WEBHOOK_SIGNATURE_HEADER = 'X-SVC-Signature';
export const WEBHOOK_MAX_ATTEMPTS = 3;
