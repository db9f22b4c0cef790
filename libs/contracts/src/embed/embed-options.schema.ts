import { z } from 'zod';
import { AvailabilityModeSchema, TierSchema } from '../common.schema';

export const EmbedOptionsQuerySchema = z.object({
  quoteId: z.string().trim().min(1).max(200),
  pk: z.string().optional(),
});

export const EmbedOptionsPendingSchema = z
  .object({ options: z.array(z.never()).length(0), pending: z.literal(true) })
  .meta({ id: 'EmbedOptionsPending' });
export type EmbedOptionsPending = z.infer<typeof EmbedOptionsPendingSchema>;

export const EmbedOptionSchema = z
  .object({
    planId: z.string(),
    name: z.string(),
    brand: z.string(),
    carrier: z.string(),
    tier: TierSchema,
    premiumCents: z.number().int().nonnegative().meta({ description: 'Total for all travelers, minor units.' }),
    currency: z.string(),
    coverage: z.object({
      medicalExpenseLimit: z.number(),
      evacuationCoverage: z.number(),
      tripCancellationLimit: z.number(),
      deductible: z.number(),
    }),
    highlights: z.array(z.string()),
    policyTermsUrl: z.string().optional().meta({
      description: "The plan's policy wording (HTML page; add `.pdf` for the PDF), served by quote-api. Public.",
    }),
    isRecommended: z.boolean(),
    availabilityMode: AvailabilityModeSchema,
    /** What Tier 3 (in-iframe) checkout needs: whether it can be paid now and the exact amount to charge. */
    checkout: z.object({
      purchasable: z.boolean(),
      amountCents: z.number().int().nonnegative(),
      currency: z.string(),
    }),
  })
  .meta({ id: 'EmbedOption' });
export type EmbedOption = z.infer<typeof EmbedOptionSchema>;

/** The ready payload: no `pending` field (docs/contract.md, GET /api/embed/options). */
export const EmbedOptionsReadySchema = z
  .object({
    quoteId: z.string(),
    quoteNumber: z.string(),
    currency: z.string(),
    recommendedPlanId: z.string().nullable(),
    options: z.array(EmbedOptionSchema),
    generatedAt: z.string(),
  })
  .meta({ id: 'EmbedOptionsReady' });
export type EmbedOptionsReady = z.infer<typeof EmbedOptionsReadySchema>;
