import {
  EMBED_SANDBOX_OPTIONS_PENDING_EMAIL,
  EMBED_SANDBOX_QUOTE_ERROR_EMAIL,
  EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST,
} from '@expedition/contracts';
import { TEST_CARDS as PROCESSOR_TEST_CARDS } from '@expedition/payments';
import { SANDBOX, TEST_CARDS } from './sandbox';

describe('the test-mode hint', () => {
  it('names the embed API sandbox inputs exactly', () => {
    expect(SANDBOX).toMatchObject({
      quoteErrorEmail: EMBED_SANDBOX_QUOTE_ERROR_EMAIL,
      quoteErrorTripCost: EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST,
      optionsPendingEmail: EMBED_SANDBOX_OPTIONS_PENDING_EMAIL,
    });
  });
  it('lists, in groups of four, the processor test cards that succeed, decline and ask for authentication', () => {
    expect(TEST_CARDS.map((c) => c.number)).toEqual([
      '4242 4242 4242 4242',
      '4000 0000 0000 0002',
      '4000 0025 0000 3155',
    ]);
    expect(TEST_CARDS.map((c) => c.number.replace(/ /g, ''))).toEqual([
      PROCESSOR_TEST_CARDS.success,
      PROCESSOR_TEST_CARDS.decline,
      PROCESSOR_TEST_CARDS.requiresAction,
    ]);
    expect(SANDBOX.declinedCard).toBe('4000 0000 0000 0002');
  });
});
