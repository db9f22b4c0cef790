import { AppError, mapDomainErrors, toAppError } from '@expedition/http-kit';
import { isQuotingError, type QuotingError } from '@expedition/quoting';

/**
 * quote-api's answers to the quoting lib's refusals: the standard /api/v1 error body, the lib's message and details
 * under these statuses and codes (docs/contract.md "Quoting API"). Installed on the app's error handler (app.ts).
 */
export const QUOTE_API_DOMAIN_ERRORS = [
  mapDomainErrors(isQuotingError, {
    sandbox_refusal: { status: 400, code: 'invalid_request' },
    invalid_plan: { status: 400, code: 'invalid_plan' },
    quote_not_purchasable: { status: 400, code: 'quote_not_purchasable' },
    already_purchased: { status: 409, code: 'already_purchased' },
    quote_expired: { status: 410, code: 'quote_expired' },
  }),
] as const;

/** A quoting refusal as quote-api answers it. */
export function toQuoteApiError(err: QuotingError): AppError {
  return toAppError(err, QUOTE_API_DOMAIN_ERRORS);
}

/**
 * quote-api's services speak AppError, because the MCP tools and the ACP sessions read its status, code and details
 * too: where a service calls the quoting lib, a refusal becomes quote-api's AppError. Anything else is rethrown as is.
 */
export function rethrowQuotingError(err: unknown): never {
  throw isQuotingError(err) ? toQuoteApiError(err) : err;
}
