/**
 * Test-mode hint: the sandbox inputs the embed API accepts with TEST keys (documented in apps/embed-api/README.md and
 * apps/widget-iframe/README.md) and the processor's test cards, both read from `@expedition/contracts/rules`. Only the
 * wording is this file's.
 */
import {
  cardNumberInGroups,
  EMBED_SANDBOX_OPTIONS_PENDING_EMAIL,
  EMBED_SANDBOX_QUOTE_ERROR_EMAIL,
  EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST,
  TEST_CARDS as PROCESSOR_TEST_CARDS,
} from '@expedition/contracts/rules';

export const SANDBOX = {
  quoteErrorEmail: EMBED_SANDBOX_QUOTE_ERROR_EMAIL,
  quoteErrorTripCost: EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST,
  optionsPendingEmail: EMBED_SANDBOX_OPTIONS_PENDING_EMAIL,
  declinedCard: cardNumberInGroups(PROCESSOR_TEST_CARDS.decline),
} as const;

export const TEST_CARDS = [
  { number: cardNumberInGroups(PROCESSOR_TEST_CARDS.success), outcome: 'succeeds' },
  { number: SANDBOX.declinedCard, outcome: 'is declined' },
  { number: cardNumberInGroups(PROCESSOR_TEST_CARDS.requiresAction), outcome: 'asks for authentication' },
] as const;
