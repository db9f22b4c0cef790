import { z } from 'zod';
import { CentsSchema, ModeSchema, TierSchema, TravelerLocaleSchema } from '../common.schema';
import { QUOTE_LIMITS, TRIP_DATE_WINDOW } from '../rules';

/**
 * The policy's bearer token (`pat_…`): handed to the buyer on the purchase receipt, the checkout success page, the
 * embed (Tier 3) receipt and the operator's `policy.issued` body. It opens this one policy (look-up and certificate)
 * and nothing else.
 */
export const PolicyAccessTokenSchema = z.string().meta({
  description:
    'Bearer token of this policy (`pat_…`): opens its look-up and certificate, nothing else. Keep it secret.',
});

export const PolicyNumberParamsSchema = z.object({
  policyNumber: z
    .string()
    .min(1)
    .max(64)
    .meta({ description: 'The policy number from the receipt.', example: 'POL-2026-7K3M9Q' }),
});

export const PolicyCertificateQuerySchema = z.object({
  access_token: z
    .string()
    .max(200)
    .optional()
    .meta({
      description:
        'The policy access token, for a person opening the link from a receipt; an `Authorization: Bearer` header ' +
        'works too. The URL is a secret: do not share it.',
    }),
});

export const PolicyLookupSchema = z
  .object({
    policyNumber: z.string(),
    status: z.string().meta({ description: '`issued` (more states may be added: ignore unknown ones gracefully).' }),
    mode: ModeSchema.meta({ description: '`test`: a sandbox policy, NOT valid for travel. `live`: real cover.' }),
    quoteNumber: z.string(),
    plan: z.object({
      planId: z.string(),
      planName: z.string(),
      carrier: z.string(),
      tier: TierSchema.optional(),
      coverage: z
        .object({
          medicalExpenseLimit: z.number(),
          evacuationCoverage: z.number(),
          tripCancellation: z.number(),
          deductible: z.number(),
          cancelReason: z.string(),
        })
        .optional()
        .meta({ description: 'Limits of the plan in USD (absent only if the catalog no longer has the plan).' }),
      policyTermsUrl: z
        .string()
        .nullable()
        .optional()
        .meta({ description: "The plan's policy wording, served by us (HTML; add `.pdf` for the PDF). Public." }),
    }),
    trip: z.object({
      destination: z.string().meta({ description: 'Destination name.' }),
      destinationSlug: z.string(),
      startDate: z.string().nullable().meta({ description: 'YYYY-MM-DD; cover starts on this day.' }),
      endDate: z.string().nullable(),
      durationDays: z.number().int().min(1).max(TRIP_DATE_WINDOW.maxTripDays).nullable(),
    }),
    travelers: z.object({
      count: z.number().int().min(1).max(QUOTE_LIMITS.maxTravelers),
      ages: z.array(z.number().int().min(0).max(QUOTE_LIMITS.maxTravelerAge)),
      names: z.array(z.string()).optional().meta({ description: 'Present when the checkout collected the names.' }),
    }),
    premiumCents: CentsSchema,
    currency: z.string(),
    issuedAt: z.string().meta({ description: 'RFC 3339 instant the policy was issued.' }),
    documentUrl: z
      .string()
      .meta({ description: 'The certificate of insurance (PDF); carries the access token: keep it private.' }),
    pageUrl: z
      .string()
      .optional()
      .meta({
        description:
          'The policy page for the traveler (HTML: status, cover, documents, emergency and claims); carries the access ' +
          'token: hand it to the traveler, never publish it.',
      }),
    disclaimer: z.string().meta({ description: 'Relay this text to the traveler.' }),
    locale: TravelerLocaleSchema.optional().meta({
      description:
        "The traveler's language, recorded on the quote: the certificate, the policy page and the e-mail use it.",
    }),
  })
  .meta({ id: 'PolicyLookup' });
export type PolicyLookup = z.infer<typeof PolicyLookupSchema>;
