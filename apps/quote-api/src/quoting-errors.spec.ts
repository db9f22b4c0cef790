import { AppError } from '@expedition/http-kit';
import { quoteExpiredError, QuotingError, type QuotingErrorCode } from '@expedition/quoting';
import { QUOTE_API_DOMAIN_ERRORS, rethrowQuotingError, toQuoteApiError } from './quoting-errors';

describe("quote-api's answers to the quoting lib's refusals", () => {
  it.each<[QuotingErrorCode, number, string]>([
    ['sandbox_refusal', 400, 'invalid_request'],
    ['invalid_plan', 400, 'invalid_plan'],
    ['quote_not_purchasable', 400, 'quote_not_purchasable'],
    ['already_purchased', 409, 'already_purchased'],
    ['quote_expired', 410, 'quote_expired'],
  ])('%s → %i %s, with the lib message and details', (code, status, apiCode) => {
    const details = [{ path: 'planId', message: 'use one of: a, b' }];
    const err = toQuoteApiError(new QuotingError(code, 'the lib says why', details));
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({ status, code: apiCode, message: 'the lib says why', details });
  });

  it('quote_expired is a 410 that names the instant and tells the caller to quote again', () => {
    const err = toQuoteApiError(
      quoteExpiredError({ quoteNumber: 'EXP-7K3M', expiresAt: new Date('2026-12-21T12:00:00Z') }),
    );
    expect(err).toMatchObject({ status: 410, code: 'quote_expired' });
    expect(err.message).toBe(
      'Quote EXP-7K3M expired at 2026-12-21T12:00:00.000Z; its price is no longer held and nothing was charged. ' +
        'Create a new quote with the same trip details and use the new quoteId and planId.',
    );
  });

  it('a quoting code it does not answer is a 500 that never shows the message', () => {
    const unknown = Object.assign(new QuotingError('quote_expired', 'secret lib wording'), { code: 'recalled' });
    const err = toQuoteApiError(unknown as QuotingError);
    expect(err).toMatchObject({ status: 500, code: 'internal_error', message: 'Internal server error' });
  });

  it('rethrowQuotingError converts quoting refusals only', () => {
    expect(() => rethrowQuotingError(new QuotingError('already_purchased', 'bought'))).toThrow(
      expect.objectContaining({ status: 409, code: 'already_purchased' }),
    );
    const other = new Error('db down');
    expect(() => rethrowQuotingError(other)).toThrow(other);
    expect(QUOTE_API_DOMAIN_ERRORS).toHaveLength(1);
  });
});
