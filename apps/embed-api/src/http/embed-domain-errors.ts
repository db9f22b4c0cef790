import {
  EMBED_PAYMENT_ALREADY_PURCHASED,
  EMBED_PAYMENT_PLAN_NOT_OFFERED,
  EMBED_PAYMENT_PLAN_NOT_PURCHASABLE,
  EMBED_PAYMENT_QUOTE_EXPIRED,
  EMBED_SANDBOX_QUOTE_ERROR,
} from '@expedition/contracts';
import { mapDomainErrors } from '@expedition/http-kit';
import { isQuotingError } from '@expedition/quoting';

/**
 * embed-api's answers to the quoting lib's refusals, installed on its error handler (app.ts): the embed routes' own
 * `{ error }` bodies (docs/contract.md "Embed HTTP API"), with the CORS headers the gate already set. The checkout
 * link's refusals use the payment routes' messages; an expired quote is a 400 here (quote-api answers 410).
 */
export const EMBED_DOMAIN_ERRORS = [
  mapDomainErrors(isQuotingError, {
    sandbox_refusal: { status: 400, code: 'invalid_request', body: { error: EMBED_SANDBOX_QUOTE_ERROR } },
    invalid_plan: { status: 400, code: 'invalid_plan', body: { error: EMBED_PAYMENT_PLAN_NOT_OFFERED } },
    quote_not_purchasable: {
      status: 400,
      code: 'quote_not_purchasable',
      body: { error: EMBED_PAYMENT_PLAN_NOT_PURCHASABLE },
    },
    already_purchased: { status: 409, code: 'already_purchased', body: { error: EMBED_PAYMENT_ALREADY_PURCHASED } },
    quote_expired: { status: 400, code: 'quote_expired', body: { error: EMBED_PAYMENT_QUOTE_EXPIRED } },
  }),
] as const;
