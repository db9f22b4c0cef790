import { z } from 'zod';
import {
  AvailabilityModeSchema,
  CountryCodeSchema,
  StateCodeSchema,
  TierSchema,
  wholeNumberFrom,
} from '../common.schema';
import { TRIP_DATE_WINDOW } from '../rules';

export const DestinationSchema = z
  .object({
    name: z.string().meta({ example: 'Antarctica' }),
    slug: z
      .string()
      .meta({ description: 'Use as the `destination` filter of GET /api/v1/products.', example: 'antarctica' }),
    description: z.string(),
    region: z.string().nullable(),
    defaultDurationDays: z
      .number()
      .int()
      .min(1)
      .max(TRIP_DATE_WINDOW.maxTripDays)
      .optional()
      .meta({ description: 'Duration to assume when the user gives none.' }),
  })
  .meta({ id: 'Destination' });
export type Destination = z.infer<typeof DestinationSchema>;

export const DestinationListSchema = z
  .object({ destinations: z.array(DestinationSchema) })
  .meta({ id: 'DestinationList' });

export const PlanSummarySchema = z
  .object({
    id: z.string().meta({ description: 'Stable plan identifier; use it as planId.', example: 'polar-shield-standard' }),
    planId: z.string().optional().meta({ description: 'Legacy alias of id.' }),
    name: z.string(),
    planName: z.string().optional().meta({ description: 'Legacy alias of name.' }),
    brand: z.string().meta({ description: 'Short carrier brand name for UI chips.' }),
    carrier: z.string().optional().meta({ description: 'Full carrier legal name.' }),
    tier: TierSchema.optional(),
    description: z.string().optional(),
    features: z.array(z.string()),
    basePrice: z.number().optional().meta({ description: 'Indicative starting premium per traveler, USD.' }),
    countriesCovered: z.array(z.string()).optional(),
    evacuationCoverage: z
      .number()
      .optional()
      .meta({ description: 'Emergency medical evacuation limit per traveler, USD.' }),
    medicalExpenseLimit: z
      .number()
      .optional()
      .meta({ description: 'Emergency medical expense limit per traveler, USD.' }),
    tripCancellationLimit: z.number().optional().meta({ description: 'Trip cancellation limit per traveler, USD.' }),
    deductible: z.number().optional().meta({ description: 'Deductible per claim, USD.' }),
    isRecommended: z.boolean().optional(),
    availabilityMode: AvailabilityModeSchema.optional(),
    highlights: z.array(z.string()).optional(),
  })
  .meta({ id: 'PlanSummary' });
export type PlanSummary = z.infer<typeof PlanSummarySchema>;

export const ProductListSchema = z
  .object({
    destination: z.string().meta({ description: 'The destination slug filtered on, or "all".' }),
    plansCount: wholeNumberFrom(0),
    plans: z.array(PlanSummarySchema),
  })
  .meta({ id: 'ProductList' });
export type ProductList = z.infer<typeof ProductListSchema>;

const booleanQuery = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])])
  .transform((v) => v === true || v === 'true' || v === '1');

export const ProductListQuerySchema = z
  .object({
    destination: z.string().trim().min(1).max(100).optional().meta({ description: 'Destination slug.' }),
    residence: CountryCodeSchema.optional().meta({ description: 'Country code; affects plan eligibility.' }),
    state: StateCodeSchema.optional().meta({ description: 'US state code; required if residence is US.' }),
    tier: TierSchema.optional(),
    include_disabled: booleanQuery.optional().default(false).meta({
      description: 'Default false; true includes admin-only and disabled plans.',
    }),
  })
  .superRefine((q, ctx) => {
    if (q.residence === 'US' && !q.state) {
      ctx.addIssue({ code: 'custom', path: ['state'], message: 'state is required when residence is US' });
    }
  });

export const PlanDetailsSchema = z
  .object({
    planId: z.string(),
    planName: z.string(),
    carrier: z.string(),
    tier: TierSchema,
    brand: z.string().optional(),
    availabilityMode: AvailabilityModeSchema.optional(),
    destinations: z.array(z.string()).optional().meta({ description: 'Destination slugs this plan covers.' }),
    coverage: z.object({
      medicalExpenseLimit: z.number(),
      evacuationCoverage: z.number(),
      tripCancellation: z.number(),
      deductible: z.number(),
      cancelReason: z.string(),
    }),
    eligibility: z.object({
      residenceType: z.string(),
      minAge: wholeNumberFrom(0),
      maxAge: wholeNumberFrom(0),
      maxTripDuration: wholeNumberFrom(1).nullable(),
      maxTravelers: wholeNumberFrom(1).nullable(),
    }),
    highlights: z.array(z.string()),
    policyTermsUrl: z
      .string()
      .nullable()
      .meta({ description: "The plan's policy wording, served by us (HTML; add `.pdf` for the PDF). Public." }),
  })
  .meta({ id: 'PlanDetails' });
export type PlanDetails = z.infer<typeof PlanDetailsSchema>;

export const PlanIdParamsSchema = z.object({
  planId: z.string().min(1).max(100).meta({ description: 'The plan id (PlanSummary.id).' }),
});
