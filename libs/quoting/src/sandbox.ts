import {
  EMBED_SANDBOX_OPTIONS_PENDING_EMAIL,
  EMBED_SANDBOX_QUOTE_ERROR_EMAIL,
  EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST,
  type Mode,
} from '@expedition/contracts/rules';
import type { QuotingErrorDetail } from './quoting-error';

/*
 * The sandbox rules (docs/contract.md "Sandbox inputs"; the values live in `@expedition/contracts/rules`): in
 * TEST mode only, these values force a failure path deterministically, so an agent or an operator can rehearse its
 * failure handling. A live-mode quote with the same values gets normal behaviour. Every channel's quotes (/api/v1,
 * MCP, ACP, the embed API) go through these, via the quote service and the embed options route.
 */

/**
 * A trip cost of exactly 13013 (USD) or the e-mail `quote-error@sandbox.test` (any case) is refused on purpose, before
 * anything is written (the quote service raises `sandbox_refusal`). Returns the offending field, or null.
 */
export function sandboxQuoteRefusal(input: {
  mode?: Mode;
  tripCostCents: number;
  email?: string | null;
}): QuotingErrorDetail | null {
  if ((input.mode ?? 'test') !== 'test') return null;
  if (input.tripCostCents === EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST * 100) {
    return {
      path: 'tripCost',
      message: `sandbox value ${EMBED_SANDBOX_QUOTE_ERROR_TRIP_COST}: refused on purpose in test mode`,
    };
  }
  if (isSandboxEmail(input.email, EMBED_SANDBOX_QUOTE_ERROR_EMAIL)) {
    return {
      path: 'email',
      message: `sandbox value ${EMBED_SANDBOX_QUOTE_ERROR_EMAIL}: refused on purpose in test mode`,
    };
  }
  return null;
}

/** A TEST quote created with the "options pending" e-mail never leaves `pending` on GET /api/embed/options. */
export function keepsOptionsPending(quote: { email: string | null; mode: Mode }): boolean {
  return quote.mode === 'test' && isSandboxEmail(quote.email, EMBED_SANDBOX_OPTIONS_PENDING_EMAIL);
}

function isSandboxEmail(value: string | null | undefined, sandbox: string): boolean {
  return typeof value === 'string' && value.trim().toLowerCase() === sandbox;
}
