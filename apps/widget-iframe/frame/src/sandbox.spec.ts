import { EMBED_SANDBOX_OPTIONS_PENDING_EMAIL, EMBED_SANDBOX_QUOTE_ERROR_EMAIL, EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST } from '@expedition/contracts';
import { TEST_CARDS as PROCESSOR_TEST_CARDS } from '@expedition/payments';
import { SANDBOX, TEST_CARDS } from './sandbox';

describe('the test-mode hint', () => {
  it('names the embed API sandbox inputs exactly', () => {
    expect(SANDBOX).toEqual({
      quoteErrorEmail: EMBED_SANDBOX_QUOTE_ERROR_EMAIL,
      quoteErrorTripCost: EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST,
      optionsPendingEmail: EMBED_SANDBOX_OPTIONS_PENDING_EMAIL,
    });
  });
  it('lists the processor test cards that succeed, decline and ask for authentication', () => {
    expect(TEST_CARDS.map((c) => c.number.replace(/ /g, ''))).toEqual([PROCESSOR_TEST_CARDS.success, PROCESSOR_TEST_CARDS.decline, PROCESSOR_TEST_CARDS.requiresAction]);
  });
});
