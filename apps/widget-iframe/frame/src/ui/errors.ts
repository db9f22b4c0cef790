import type { RenderLocale } from '@expedition/i18n';
import type { WidgetMessages } from '@expedition/i18n/widget';
import { QUOTE_NOT_HERE, type EmbedError } from '../api';

/**
 * What the traveler reads for an error, in the widget's language. A refusal's own reason (the embed API's words:
 * "travelerAges must have one age per traveler") is shown as it is in English only; the other languages say what to
 * check. The page's `quote.error` / `payment.failed` events carry the code and the API's English message unchanged.
 */
export function explainError(error: EmbedError, t: WidgetMessages, lang: RenderLocale): string {
  const e = t.errors;
  switch (error.code) {
    case 'unauthorized':
      return e.unauthorized();
    case 'origin_forbidden':
      return error.message === QUOTE_NOT_HERE ? e.quoteNotHere() : e.forbidden();
    case 'rate_limited':
      return e.rateLimited();
    case 'network':
      return e.network();
    case 'server_error':
      return e.server();
    case 'options_timeout':
      return e.optionsTimeout();
    case 'already_purchased':
      return t.checkout.alreadyInsured();
    case 'payment_in_progress':
      return t.checkout.inProgress();
    case 'quote_refused':
      return lang === 'en' ? error.message : e.quoteRefused();
    default:
      return lang === 'en' ? error.message : e.refused();
  }
}
