import { z } from 'zod';
import {
  CentsSchema,
  ConfidenceSchema,
  CountryCodeSchema,
  CurrencySchema,
  IsoDateSchema,
  LanguageTagSchema,
  StateCodeSchema,
  TravelerLocaleSchema,
} from '../common.schema';
import { EMAIL_MAX_LENGTH, isoDay, QUOTE_LIMITS as L, TRIP_DATE_WINDOW } from '../rules';
import { tripDateProblems } from '../trip-dates';

export const QuoteRequestSchema = z
  .object({
    destination: z.string().trim().min(1).max(L.maxDestination).meta({
      description: 'Destination name or slug, as listed by GET /api/v1/destinations.',
      example: 'Antarctica',
    }),
    startDate: IsoDateSchema.meta({
      description: `Departure date, YYYY-MM-DD: from today (UTC) to ${TRIP_DATE_WINDOW.maxDaysAhead} days ahead.`,
    }),
    durationDays: z
      .number()
      .int()
      .min(1)
      .max(TRIP_DATE_WINDOW.maxTripDays)
      .meta({
        description:
          "Trip duration in days. If the user gave none, send the destination's default (its `defaultDurationDays`, " +
          'also listed in the rules of the API description) and tell the user.',
        example: 14,
      }),
    tripCost: z.number().nonnegative().max(L.maxTripCost).meta({
      description: 'Total trip cost in USD for ALL travelers together (not per traveler).',
      example: 24000,
    }),
    travelers: z.number().int().min(1).max(L.maxTravelers),
    travelerAges: z
      .array(z.number().int().min(0).max(L.maxTravelerAge))
      .min(1)
      .max(L.maxTravelers)
      .meta({
        description: 'Age of each traveler at departure, one per traveler. Ages 70+ cost significantly more.',
        example: [62, 71],
      }),
    residence: CountryCodeSchema,
    state: StateCodeSchema.optional(),
    operator: z
      .string()
      .trim()
      .max(L.maxName)
      .optional()
      .meta({
        description:
          'Tour operator, if known: its name (shown in tripSummary, nothing more) or, to attribute the quote to a ' +
          "registered operator (commission and policy webhook), that operator's id exactly as it was given to you.",
      }),
    currency: CurrencySchema.optional().default('USD').meta({ description: 'Default USD; only USD is priced today.' }),
    depositPaidDate: IsoDateSchema.optional().meta({
      description:
        'Date of the first trip deposit: not in the future, at most ' +
        `${TRIP_DATE_WINDOW.maxDepositDaysBack} days back. Cancel-for-any-reason cover needs purchase within 21 days of it.`,
    }),
    email: z.email().max(EMAIL_MAX_LENGTH).optional(),
    locale: LanguageTagSchema.optional().meta({
      description:
        "The traveler's language (BCP 47), for the checkout page, the confirmation e-mail, the certificate and the " +
        'policy page. We write English, German, French and Spanish; another tag falls back by language (de-AT → de), ' +
        'then to English. Without it, the Accept-Language header decides. The quote records the result as `locale`.',
    }),
  })
  .superRefine((q, ctx) => {
    if (q.travelerAges.length !== q.travelers) {
      ctx.addIssue({
        code: 'custom',
        path: ['travelerAges'],
        message: `expected ${q.travelers} ages (one per traveler), got ${q.travelerAges.length}`,
      });
    }
    if (q.residence === 'US' && !q.state) {
      ctx.addIssue({ code: 'custom', path: ['state'], message: 'state is required when residence is US' });
    }
  })
  .meta({ id: 'QuoteRequest' });

/**
 * QuoteRequestSchema plus the date window (TRIP_DATE_WINDOW) as of `now`, the caller's clock: what POST /api/v1/quotes
 * parses with. The window is not in QuoteRequestSchema itself because "today" must come from an injected clock.
 */
export function quoteRequestSchemaAt(now: Date) {
  // One schema per UTC day (the window depends on the day alone): a schema made per request had zod 4 compile its
  // fast parser on every request, about 4 % of the quote route's CPU (tools/bench/README.md).
  const day = isoDay(now);
  if (windowed?.day !== day) {
    const today = new Date(`${day}T00:00:00Z`);
    windowed = {
      day,
      schema: QuoteRequestSchema.superRefine((q, ctx) => {
        for (const { path, message } of tripDateProblems(q, today)) ctx.addIssue({ code: 'custom', path, message });
      }),
    };
  }
  return windowed.schema;
}
let windowed: { day: string; schema: ReturnType<typeof QuoteRequestSchema.superRefine> } | undefined;

export const TripSummarySchema = z
  .object({
    destination: z.object({ slug: z.string(), name: z.string() }),
    startDate: z.string(),
    endDate: z.string(),
    durationDays: z.number().int().min(1).max(TRIP_DATE_WINDOW.maxTripDays),
    durationDefaulted: z.boolean().meta({ description: 'True when the server assumed the destination default.' }),
    travelers: z.number().int().min(1).max(L.maxTravelers),
    travelerAges: z.array(z.number().int().min(0).max(L.maxTravelerAge)),
    tripCost: z.number().meta({ description: 'Total trip cost, USD.' }),
    tripCostCents: z
      .number()
      .int()
      .min(0)
      .max(L.maxTripCost * 100),
    currency: z.string(),
    residence: z.string(),
    state: z.string().nullable(),
    operator: z.string().nullable(),
  })
  .meta({ id: 'TripSummary' });

export const QuotePlanSchema = z
  .object({
    planId: z.string().meta({ description: 'Pass to POST /api/v1/checkout or /purchase.' }),
    planName: z.string(),
    brand: z.string().optional(),
    tier: z.string().optional(),
    estimatedPremium: z.number().meta({ description: 'Total premium for all travelers, USD (2 decimals).' }),
    estimatedPremiumCents: CentsSchema,
    premiumPerTraveler: z.number().meta({ description: 'Average premium per traveler, USD.' }),
    travelerPremiumsCents: z.array(CentsSchema).meta({
      description: 'Premium of each traveler, in the order of travelerAges; sums exactly to estimatedPremiumCents.',
    }),
    currency: z.string(),
    confidence: ConfidenceSchema,
    medicalLimit: z.number().nullable(),
    evacuationLimit: z.number().nullable().optional(),
    deductible: z.number().nullable(),
    isRecommended: z.boolean(),
    availabilityMode: z.string().optional(),
    cfarEligible: z.boolean().optional(),
    notes: z.string().nullable(),
  })
  .meta({ id: 'QuotePlan' });

export const QuoteResponseSchema = z
  .object({
    quoteId: z.string(),
    quoteNumber: z.string().meta({ description: 'Human-readable reference, EXP-XXXX.', example: 'EXP-7K3M' }),
    sessionId: z.string().meta({ description: 'Input to POST /api/v1/checkout.' }),
    status: z.string().optional(),
    expiresAt: z
      .string()
      .optional()
      .meta({
        description:
          'The premiums of `plans` are held until this instant (RFC 3339): 30 days after the quote, or the departure ' +
          'if sooner. Checkout and purchase charge exactly these amounts until then and answer 410 `quote_expired` ' +
          'after it; then create a new quote.',
      }),
    tripSummary: TripSummarySchema,
    recommendedPlan: z.string().meta({ description: 'planName of the recommended plan (plans[0]); empty when none.' }),
    recommendedPlanId: z.string().nullable().optional(),
    plans: z.array(QuotePlanSchema).meta({ description: 'Eligible plans, the recommended one first.' }),
    ineligiblePlans: z
      .array(z.object({ planId: z.string(), planName: z.string(), reasons: z.array(z.string()) }))
      .optional(),
    disclaimer: z.string().meta({ description: 'Relay this to the user, always.' }),
    locale: TravelerLocaleSchema.optional().meta({
      description:
        "The language recorded for the traveler's pages, e-mail and documents (from `locale` or Accept-Language).",
    }),
  })
  .meta({ id: 'QuoteResponse' });
export type QuoteResponse = z.infer<typeof QuoteResponseSchema>;
