/**
 * `sandbox_refusal`: a test-mode quote with a sandbox value, refused on purpose (sandbox.ts).
 * `invalid_plan`: the plan is not among the quote's plans.
 * `quote_not_purchasable`: the plan is priced on inquiry (an underwriter confirms the premium first).
 * `already_purchased`: the quote is bought.
 * `quote_expired`: the quote's price is no longer held.
 */
export type QuotingErrorCode =
  'sandbox_refusal' | 'invalid_plan' | 'quote_not_purchasable' | 'already_purchased' | 'quote_expired';

/** A field at fault: its dotted path in the caller's input and what is wrong with it. */
export interface QuotingErrorDetail {
  path: string;
  message: string;
}

/**
 * The one error type of the quoting lib: a stable `code`, a message written for the caller (an agent or a traveler)
 * and the fields at fault. Each app maps `code` to its own status and body at its edge (http-kit `mapDomainErrors`);
 * the lib never picks either.
 */
export class QuotingError extends Error {
  override readonly name = 'QuotingError';

  constructor(
    readonly code: QuotingErrorCode,
    message: string,
    readonly details?: readonly QuotingErrorDetail[],
  ) {
    super(message);
  }
}

export function isQuotingError(error: unknown): error is QuotingError {
  return error instanceof QuotingError;
}

/**
 * `quote_expired`: the quote's premiums were locked until its `expiresAt`; after it nothing is repriced silently.
 * The message tells an agent what to do next (quote again), and that nothing was charged.
 */
export function quoteExpiredError(quote: { quoteNumber: string; expiresAt: Date | null }): QuotingError {
  const at = quote.expiresAt ? ` at ${quote.expiresAt.toISOString()}` : '';
  return new QuotingError(
    'quote_expired',
    `Quote ${quote.quoteNumber} expired${at}; its price is no longer held and nothing was charged. ` +
      'Create a new quote with the same trip details and use the new quoteId and planId.',
  );
}
