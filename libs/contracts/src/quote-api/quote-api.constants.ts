import {
  cardNumberInGroups,
  EMBED_SANDBOX_QUOTE_ERROR_EMAIL,
  EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST,
  TEST_CARDS,
} from '../rules';

/**
 * Version of the /api/v1 description (docs/contract.md, Versioning 1); see CHANGELOG.md for what each version added.
 */
export const QUOTE_API_VERSION = '1.0.0';

/** Limits of /api/v1 (docs/decisions.md, Quoting API: ours and stable; docs/contract.md, Limits). */
export const QUOTE_API_LIMITS = {
  requestsPerMinutePerClient: 120,
  maxJsonBodyBytes: 64 * 1024,
} as const;

/**
 * Sandbox inputs of /api/v1 in test mode (the default mode of quote-api; a live deployment prices and charges these
 * values normally). The quote refusal reuses the embed API's values and the cards are the processor's test cards
 * (all in rules.ts).
 */
export const QUOTE_API_SANDBOX = {
  /** POST /api/v1/quotes → 400 `invalid_request`, message starting "Sandbox:", nothing stored. */
  quoteRefusal: { tripCost: EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST, email: EMBED_SANDBOX_QUOTE_ERROR_EMAIL },
  /** The checkout page's card form: declined ("Your card was declined."), the link stays open. */
  declinedCard: cardNumberInGroups(TEST_CARDS.decline),
  successCard: cardNumberInGroups(TEST_CARDS.success),
  /** POST /api/v1/purchase: a Shared Payment Token with this prefix is declined (402 `verification-failed`). */
  declinedSptPrefix: 'spt_test_decline',
} as const;
