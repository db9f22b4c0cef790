import { formatMoney } from '@expedition/contracts/rules';
import { formatDay as formatDayIn, type RenderLocale } from '@expedition/i18n';

/**
 * How the policyholder's documents write dates, in the reader's language (`Intl`, libs/i18n). Money goes through the
 * platform's formatter (`formatMoney` of `@expedition/contracts/rules`) with the currency's code, not a symbol
 * (`{ code: true }`: `USD 250,000`, `250.000 USD`): a document is read abroad, where `$` is ambiguous.
 */

/** `2027-01-10` (or an RFC 3339 instant) → `10 January 2027` / `10. Januar 2027`. A calendar day never shifts. */
export function formatDay(isoDay: string, locale: RenderLocale = 'en'): string {
  return formatDayIn(isoDay, locale);
}

/**
 * A catalog limit (whole US dollars) as the documents write it, through the platform's money formatter:
 * `USD 250,000` / `250.000 USD`.
 */
export function coverageLimitText(dollars: number, locale: RenderLocale = 'en'): string {
  return formatMoney(dollars * 100, 'USD', locale, { code: true, trimZeroCents: true });
}
