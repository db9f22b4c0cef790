import { z } from 'zod';
import { TierSchema } from '../common.schema';
import { QUOTE_LIMITS as L } from '../rules';

export const TripCostRangeSchema = z.enum(['under-10k', '10k-20k', 'over-20k']);

export const CoverageGapRequestSchema = z
  .object({
    destination: z.string().trim().min(1).max(L.maxDestination).meta({ description: 'Slug or name.' }),
    creditCardName: z.string().trim().max(120).optional().meta({ example: 'Chase Sapphire Reserve' }),
    tripCost: z.number().nonnegative().max(L.maxTripCost).optional().meta({ description: 'Total trip cost, USD.' }),
    tripCostRange: TripCostRangeSchema.optional().meta({ description: 'Used when the exact amount is unknown.' }),
  })
  .meta({ id: 'CoverageGapRequest' });
export type CoverageGapRequest = z.infer<typeof CoverageGapRequestSchema>;

export const CoverageKindSchema = z.enum(['trip_cancellation', 'emergency_medical', 'medical_evacuation']);

export const CoverageGapSchema = z.object({
  coverage: CoverageKindSchema,
  requiredUsd: z.number(),
  cardCoversUsd: z.number(),
  gapUsd: z.number().meta({ description: 'requiredUsd - cardCoversUsd, > 0.' }),
  closedBy: z
    .array(z.object({ planId: z.string(), planName: z.string(), tier: TierSchema, limitUsd: z.number() }))
    .meta({ description: 'Purchasable plans for this destination whose limit closes the gap.' }),
});

export const CoverageGapResponseSchema = z
  .object({
    destination: z.object({ slug: z.string(), name: z.string() }),
    card: z.object({
      input: z.string().nullable(),
      matched: z.boolean(),
      name: z.string().optional(),
      issuer: z.string().optional(),
      benefits: z
        .object({
          tripCancellation: z.object({
            limitUsd: z.number(),
            basis: z.enum(['per_person', 'per_trip']),
            perTripMaxUsd: z.number().nullable(),
          }),
          emergencyMedicalUsd: z.number(),
          evacuationUsd: z.number(),
          notes: z.array(z.string()),
        })
        .optional(),
      source: z.string().optional(),
      asOf: z.string().optional(),
    }),
    tripCost: z.object({
      amountUsd: z.number().nullable(),
      range: TripCostRangeSchema.nullable(),
      assumedUsd: z.number(),
      basis: z.enum(['exact', 'range', 'default']).meta({ description: 'Where assumedUsd comes from.' }),
    }),
    travelers: z.number().int().min(1).max(L.maxTravelers),
    requirements: z.object({
      tripCancellationUsd: z.number(),
      emergencyMedicalUsd: z.number(),
      evacuationUsd: z.number(),
    }),
    gaps: z.array(CoverageGapSchema),
    fullyCovered: z.boolean(),
    recommendedPlanId: z.string().nullable(),
    knownCards: z.array(z.string()).optional().meta({ description: 'Present when the card was not recognized.' }),
    summary: z.string(),
    disclaimer: z.string(),
  })
  .meta({ id: 'CoverageGapResponse' });
