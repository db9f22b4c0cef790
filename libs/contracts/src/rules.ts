/**
 * The platform's input rules as plain values: the limits of every quote and portal input, the trip date window, the
 * sandbox inputs, the payment mode, the priced currencies, an e-mail shape check, UTC day arithmetic (`./days`), the
 * names of our HTTP headers (`./headers`) and the money formatter (`./money`).
 * Imported by `@expedition/contracts/rules`; `@expedition/contracts` re-exports it.
 *
 * One home for each number: the zod schemas of this lib, domain-pricing's checks, the servers AND the browser code
 * (the widget iframe, the portal UI) read them here; no browser file restates one (tools/checks/browser-rules.spec.ts
 * fails if one does). Like `widget-protocol.ts` this entry reaches no zod and no package (zod-free-entries.spec.ts
 * walks its imports), so a browser bundle pays only for the few values it reads.
 */
export * from './days';
export * from './headers';
export * from './money';

/** Payment mode of a publishable key, a quote and every payment made for it: simulated or Stripe test keys, or real money. */
export const MODES = ['test', 'live'] as const;
/** The one spelling of the pair for the whole platform. */
export type Mode = (typeof MODES)[number];

/** ISO 4217 codes the pricing engine prices; any other currency is refused with a reason. */
export const PRICED_CURRENCIES = ['USD'] as const;

/** Limits of a quote request, the same on every surface (/api/v1, /api/embed, MCP, the widget form, the pricing engine). */
export const QUOTE_LIMITS = {
  /** Travelers on one quote (and entries in travelerAges / travelerDobs). */
  maxTravelers: 20,
  /** Ages are whole years from 0 to this; dates of birth may not give more. */
  maxTravelerAge: 120,
  /** Total trip cost for all travelers, in whole US dollars (10 million). */
  maxTripCost: 10_000_000,
  /** Characters of a destination name or slug (and of each of the embed API's otherCountries). */
  maxDestination: 100,
  /** Entries in the embed API's otherCountries. */
  maxOtherCountries: 20,
  /** Characters of the embed API's residence and state (free text there, an ISO code on /api/v1). */
  maxResidence: 56,
  /** Characters of a traveler's or guest's name, and of /api/v1's operator. */
  maxName: 200,
  /** Characters of the embed API's phone. */
  maxPhone: 40,
} as const;

/**
 * The sane window of every date the APIs accept (README "Decisions"). Days are UTC calendar days; "today" always comes
 * from the caller's clock. Checked by `tripDateProblems` (trip-dates.ts).
 */
export const TRIP_DATE_WINDOW = {
  /** Departure (`startDate`): from today to this many days ahead (two years). */
  maxDaysAhead: 730,
  /** `endDate` is after `startDate` by 1 to this many days; `durationDays` is 1 to this. */
  maxTripDays: 365,
  /** Dates of birth: not in the future, and an age of at most this many years today. */
  maxAgeYears: QUOTE_LIMITS.maxTravelerAge,
  /** `depositPaidDate`: not in the future, and at most this many days back (two years). */
  maxDepositDaysBack: 730,
} as const;

/** Limits of the operator portal's forms (accounts, keys, the provider's operator settings). */
export const PORTAL_LIMITS = {
  passwordMinLength: 12,
  passwordMaxLength: 256,
  /** A person's display name and an operator's company name. */
  maxPersonName: 120,
  maxOperatorName: 120,
  /** A publishable key's label. */
  maxKeyLabel: 100,
  /** Commission in basis points (10 000 = 100 %). */
  maxCommissionBps: 10_000,
  /** How long a rotated webhook secret keeps signing next to the new one (one week). */
  maxSecretOverlapHours: 168,
  /** The checkout pages' branding: a #rrggbb colour, an https logo URL. */
  maxBrandColor: 7,
  maxLogoUrl: 2048,
} as const;

/**
 * A quick shape check for an e-mail address typed into a browser form (something@something.tld, no spaces); the
 * servers' zod `z.email()` is the authority and stricter.
 */
export const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** Characters of an e-mail address (RFC 5321 path limit), on every surface. */
export const EMAIL_MAX_LENGTH = 254;

/*
 * Sandbox inputs: with a TEST key only, these values force the failure paths deterministically, so an operator can
 * see its page handle them. A live key gets normal behaviour for the same values.
 */
/** POST /api/embed/quote (and /api/v1/quotes) with this exact trip cost → 400, nothing stored. */
export const EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST = 13013;
/** POST /api/embed/quote (and /api/v1/quotes) with this e-mail (any case) → 400, nothing stored. */
export const EMBED_SANDBOX_QUOTE_ERROR_EMAIL = 'quote-error@sandbox.test';
/** A quote with this e-mail (any case): GET /api/embed/options stays `{ options: [], pending: true }` forever. */
export const EMBED_SANDBOX_OPTIONS_PENDING_EMAIL = 'options-pending@sandbox.test';

/**
 * The payment processor's magic test cards (Stripe's own test numbers, https://docs.stripe.com/testing), as digits:
 * the simulated processor and the fake Stripe server answer them as named; Stripe test mode does the same.
 */
export const TEST_CARDS = {
  success: '4242424242424242',
  decline: '4000000000000002',
  insufficientFunds: '4000000000009995',
  processingError: '4000000000000119',
  requiresAction: '4000002500003155',
} as const;

/** A card number in groups of four, as people read it: "4242 4242 4242 4242". */
export function cardNumberInGroups(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}
