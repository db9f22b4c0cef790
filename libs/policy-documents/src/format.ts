import { formatDay as formatDayIn, formatMoney, formatWholeMoney, type RenderLocale } from '@expedition/i18n';

/**
 * How the policyholder's documents write dates and money, in the reader's language (`Intl`, libs/i18n). Amounts
 * carry the currency's code, not a symbol (`USD 250,000`, `250.000 USD`): a document is read abroad, where `$` is
 * ambiguous.
 */

/** `2027-01-10` (or an RFC 3339 instant) → `10 January 2027` / `10. Januar 2027`. A calendar day never shifts. */
export function formatDay(isoDay: string, locale: RenderLocale = 'en'): string {
  return formatDayIn(isoDay, locale);
}

/** Whole US dollars of a catalog limit: `USD 250,000` / `250.000 USD`. */
export function formatUsd(dollars: number, locale: RenderLocale = 'en'): string {
  return formatWholeMoney(dollars, 'USD', locale, { code: true });
}

/** Integer minor units with their currency: `USD 1,234.50` / `1.234,50 USD`. */
export function formatMinor(cents: number, currency: string, locale: RenderLocale = 'en'): string {
  return formatMoney(cents, currency, locale, { code: true });
}
