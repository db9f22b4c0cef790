import { quoteExpiredError, QuotingError } from './quoting-error';
import { keepsOptionsPending, sandboxQuoteRefusal } from './sandbox';

describe('sandboxQuoteRefusal', () => {
  const base = { tripCostCents: 2_400_000, email: 'ann@example.com' };

  it('refuses the sandbox trip cost (13013 USD) and e-mail (any case, trimmed) in test mode', () => {
    expect(sandboxQuoteRefusal({ ...base, tripCostCents: 1_301_300 })).toMatchObject({ path: 'tripCost' });
    expect(sandboxQuoteRefusal({ ...base, email: '  Quote-Error@Sandbox.TEST ' })).toMatchObject({ path: 'email' });
    expect(sandboxQuoteRefusal({ ...base, mode: 'test', tripCostCents: 1_301_300 })).not.toBeNull();
  });

  it('lets everything else through, and the sandbox values too in live mode', () => {
    expect(sandboxQuoteRefusal(base)).toBeNull();
    expect(sandboxQuoteRefusal({ ...base, tripCostCents: 1_301_301 })).toBeNull();
    expect(sandboxQuoteRefusal({ ...base, email: null })).toBeNull();
    expect(
      sandboxQuoteRefusal({ mode: 'live', tripCostCents: 1_301_300, email: 'quote-error@sandbox.test' }),
    ).toBeNull();
  });
});

describe('keepsOptionsPending', () => {
  it('holds a test quote with the "options pending" e-mail (any case, trimmed), never a live one', () => {
    expect(keepsOptionsPending({ mode: 'test', email: ' Options-Pending@Sandbox.test' })).toBe(true);
    expect(keepsOptionsPending({ mode: 'live', email: 'options-pending@sandbox.test' })).toBe(false);
    expect(keepsOptionsPending({ mode: 'test', email: 'ann@example.com' })).toBe(false);
    expect(keepsOptionsPending({ mode: 'test', email: null })).toBe(false);
  });
});

describe('quoteExpiredError', () => {
  it('is the quote_expired QuotingError that names the instant and tells the caller to quote again', () => {
    const err = quoteExpiredError({ quoteNumber: 'EXP-7K3M', expiresAt: new Date('2026-12-21T12:00:00Z') });
    expect(err).toBeInstanceOf(QuotingError);
    expect(err).toMatchObject({ code: 'quote_expired' });
    expect(err).not.toHaveProperty('status');
    expect(err.message).toBe(
      'Quote EXP-7K3M expired at 2026-12-21T12:00:00.000Z; its price is no longer held and nothing was charged. ' +
        'Create a new quote with the same trip details and use the new quoteId and planId.',
    );
  });
});
