import { z } from 'zod';
import { IsoDateSchema, LanguageTagSchema } from '../common.schema';
import { EMAIL_MAX_LENGTH, QUOTE_LIMITS as L } from '../rules';

/** The only 400 body for bad input on POST /api/embed/quote (docs/contract.md). */
export const EMBED_INVALID_FIELDS_ERROR = 'Missing or invalid required fields';
export const EMBED_QUOTE_CREATION_FAILED = 'Quote could not be created';
export const EMBED_QUOTE_ID_REQUIRED = 'quoteId required';
export const EMBED_DEFAULT_QUOTE_NAME = 'Embedded quote';

/**
 * Body of POST /api/embed/quote. Types are checked strictly (a wrong type on any field is a 400); derived values
 * (durationDays from dates, zero-filled ages, ages from dates of birth, the default name) are applied by the
 * embed-api service, not here, because they need the departure date.
 */
export const EmbedQuoteRequestSchema = z
  .object({
    destination: z.string().trim().min(1).max(L.maxDestination),
    tripCost: z.number().finite().nonnegative().max(L.maxTripCost).meta({
      description: 'Total trip cost in whole dollars for all travelers (not per traveler, not cents).',
    }),
    travelers: z.number().int().min(1).max(L.maxTravelers),
    residence: z.string().trim().min(2).max(L.maxResidence),
    email: z.email().max(EMAIL_MAX_LENGTH),
    startDate: IsoDateSchema.optional(),
    endDate: IsoDateSchema.optional(),
    durationDays: z.number().finite().optional(),
    currency: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{3}$/)
      .optional(),
    otherCountries: z.array(z.string().trim().max(L.maxDestination)).max(L.maxOtherCountries).optional(),
    travelerAges: z.array(z.number().int().min(0).max(L.maxTravelerAge)).max(L.maxTravelers).optional(),
    travelerDobs: z.array(IsoDateSchema).max(L.maxTravelers).optional(),
    state: z.string().trim().max(L.maxResidence).optional(),
    name: z.string().max(L.maxName).optional(),
    phone: z.string().trim().max(L.maxPhone).optional(),
    locale: LanguageTagSchema.optional().meta({
      description: "The traveler's language (MountConfig.locale); else Accept-Language decides. Recorded on the quote.",
    }),
  })
  .meta({ id: 'EmbedQuoteRequest' });
export type EmbedQuoteRequest = z.infer<typeof EmbedQuoteRequestSchema>;

export const EmbedQuoteResultSchema = z
  .object({
    quoteId: z.string(),
    quoteNumber: z.string().regex(/^EXP-[0-9A-Z]{4}$/),
    instantQuoteEligible: z.boolean(),
  })
  .meta({ id: 'EmbedQuoteResult' });
export type EmbedQuoteResult = z.infer<typeof EmbedQuoteResultSchema>;
