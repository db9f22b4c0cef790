// What other projects import; everything else is internal to the lib.
export { normalizeQuoteNumber, QUOTE_NUMBER_ALPHABET } from './identifiers';
export { createQuoteService, type NewQuote, type QuoteService } from './quote.service';
export {
  findQuoteByNumber,
  QUOTE_NUMBER_RECENT_DAYS,
  type QuoteNumberMatch,
  type QuoteNumberQuery,
} from './quote-number-lookup';
export { isQuotingError, quoteExpiredError, QuotingError, type QuotingErrorCode } from './quoting-error';
export { keepsOptionsPending } from './sandbox';
export { createCheckoutLinks, loadQuoteForCheckout, type CheckoutLinks } from './checkout-link';
export { toEmbedOptionsReady, type StoredOption } from './options/option-rows';
export { planHighlights } from './options/plan-highlights';
export {
  createOptionsWorker,
  type OptionsOutcome,
  type OptionsRunSummary,
  type OptionsWorker,
} from './options/options-worker';
