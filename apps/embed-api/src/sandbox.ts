import {
  EMBED_SANDBOX_OPTIONS_PENDING_EMAIL,
  EMBED_SANDBOX_QUOTE_ERROR_EMAIL,
  EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST,
  type EmbedQuoteRequest,
  type Mode,
} from '@expedition/contracts';

/**
 * Sandbox inputs (README "Sandbox inputs"): test keys only, so an operator can rehearse its failure handling.
 * Live keys never look at these values.
 */
export function forcesQuoteError(body: Pick<EmbedQuoteRequest, 'tripCost' | 'email'>, mode: Mode): boolean {
  if (mode !== 'test') return false;
  return (
    body.tripCost === EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST || sameEmail(body.email, EMBED_SANDBOX_QUOTE_ERROR_EMAIL)
  );
}

/** A TEST quote created with the "options pending" email never leaves `pending` on GET /api/embed/options. */
export function keepsOptionsPending(quote: { email: string | null; mode: Mode }): boolean {
  return quote.mode === 'test' && sameEmail(quote.email, EMBED_SANDBOX_OPTIONS_PENDING_EMAIL);
}

function sameEmail(value: string | null | undefined, sandbox: string): boolean {
  return typeof value === 'string' && value.trim().toLowerCase() === sandbox;
}
