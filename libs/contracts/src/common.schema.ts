import { z } from 'zod';
import { MODES } from './rules';

/** A calendar date `YYYY-MM-DD` that exists (2026-02-30 is rejected). */
export const IsoDateSchema = z.iso.date().meta({ description: 'Calendar date, YYYY-MM-DD.', example: '2027-01-12' });

export const TierSchema = z.enum(['basic', 'standard', 'premium']).meta({ id: 'Tier' });

export const AvailabilityModeSchema = z.enum(['full', 'deposit', 'inquiry', 'admin_only']).meta({
  id: 'AvailabilityMode',
  description:
    'How a plan can be bought. full: buy now for the whole premium. deposit: buy now; meant for trips where only the ' +
    'deposit has been paid. inquiry: price is indicative and an underwriter confirms it; cannot be bought online. ' +
    'admin_only: sold by the provider only; hidden unless include_disabled=true.',
});

/** Payment mode (`Mode`, `MODES` in rules.ts): `test` (simulated, or Stripe test keys) or `live` (real money). */
export const ModeSchema = z.enum(MODES);

/**
 * The traveler's languages (libs/i18n holds their messages): the documents, pages and e-mails a traveler reads are in
 * one of these. Kept here as data because contracts depend on nothing; a test in quote-api checks it equals
 * libs/i18n's list.
 */
export const TRAVELER_LOCALES = ['en', 'de', 'fr', 'es'] as const;
export const TravelerLocaleSchema = z.enum(TRAVELER_LOCALES).meta({
  id: 'TravelerLocale',
  description: "The traveler's language: en, de, fr or es.",
});

/** A BCP 47 language tag as a caller gives it (`de`, `de-AT`, `pt-BR`); we map it to a TravelerLocale. */
export const LanguageTagSchema = z
  .string()
  .trim()
  .max(35)
  .regex(/^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/, 'must be a BCP 47 language tag, e.g. de or fr-CH')
  .meta({ example: 'de-AT' });

export const ConfidenceSchema = z.enum(['high', 'medium', 'low']).meta({ id: 'Confidence' });

/** ISO 3166-1 alpha-2, normalized to upper case. */
export const CountryCodeSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'must be a two-letter ISO 3166-1 country code')
  .transform((s) => s.toUpperCase())
  .meta({ description: 'ISO 3166-1 alpha-2 country code, e.g. US, GB, DE.', example: 'US' });

/** US state / region code, normalized to upper case. */
export const StateCodeSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{2}$/, 'must be a two-letter state code')
  .transform((s) => s.toUpperCase())
  .meta({ description: 'Two-letter US state code (required when residence is US).', example: 'CA' });

export const CurrencySchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{3}$/, 'must be an ISO 4217 code')
  .transform((s) => s.toUpperCase())
  .meta({ description: 'ISO 4217 currency code.', example: 'USD' });

/**
 * A whole number from `min` up, with no upper limit of ours (an amount of cents, a count, a plan's own age limit).
 * zod's `.int()` writes the safe-integer range (±9007199254740991) into JSON Schema as if it were a real limit; this
 * writes `type: integer` and `minimum` only (the MCP tools' schemas and the OpenAPI documents read it).
 */
export function wholeNumberFrom(min: number) {
  return z
    .number()
    .min(min)
    .refine(Number.isSafeInteger, { message: 'must be a whole number' })
    .meta({ type: 'integer' });
}

/** Integer minor units (cents). */
export const CentsSchema = wholeNumberFrom(0).meta({ description: 'Integer minor units (cents).' });

/** Error codes of the quoting API (`/api/v1`). Stable: clients may switch on them. */
export const ApiErrorCodeSchema = z
  .enum([
    'invalid_request',
    'invalid_json',
    'payload_too_large',
    'not_found',
    'plan_not_found',
    'quote_not_found',
    'unknown_destination',
    'invalid_plan',
    'session_mismatch',
    'quote_expired',
    'quote_not_purchasable',
    'already_purchased',
    'payment_in_progress',
    'payment_refunded',
    'policy_not_found',
    'unauthorized',
    'rate_limited',
    'internal_error',
  ])
  .meta({ id: 'ApiErrorCode' });
export type ApiErrorCode = z.infer<typeof ApiErrorCodeSchema>;

export const ApiErrorDetailSchema = z.object({
  path: z
    .string()
    .meta({ description: 'Dotted path of the offending field, e.g. travelerAges.1', example: 'startDate' }),
  message: z.string(),
});

export const ApiErrorSchema = z
  .object({
    error: z.string().meta({ description: 'Human-readable message; safe to show to a user.' }),
    code: ApiErrorCodeSchema,
    details: z.array(ApiErrorDetailSchema).optional().meta({ description: 'Per-field problems, for 400 responses.' }),
    requestId: z.string().optional().meta({ description: 'Echo of the X-Request-Id response header.' }),
  })
  .meta({ id: 'Error', description: 'Error body of every non-2xx /api/v1 response (except 402, see /purchase).' });
