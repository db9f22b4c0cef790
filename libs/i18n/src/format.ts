import { intlLocale, type RenderLocale } from './locales';

/**
 * Dates and lists for people, through `Intl` in the reader's language. Money has its own formatter, universal like
 * this lib and reachable from every project (the pricing engine included): `formatMoney` of
 * `@expedition/contracts/rules` (libs/contracts/src/money.ts).
 */

const dayFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * `2027-01-10` (or an RFC 3339 instant) → `10 January 2027` / `10. Januar 2027` / `10 janvier 2027` /
 * `10 de enero de 2027`. A calendar day is read as UTC, so it never shifts a day.
 */
export function formatDay(isoDay: string | Date, locale: RenderLocale, month: 'long' | 'short' = 'long'): string {
  const date = typeof isoDay !== 'string' ? isoDay : new Date(isoDay.length === 10 ? `${isoDay}T00:00:00Z` : isoDay);
  if (Number.isNaN(date.getTime())) return String(isoDay);
  const key = `${locale}|${month}`;
  let f = dayFormats.get(key);
  // English as the documents write it (day month year), not the US order.
  const tag = locale === 'en' || locale === 'en-XA' ? 'en-GB' : intlLocale(locale);
  if (!f)
    dayFormats.set(
      key,
      (f = new Intl.DateTimeFormat(tag, { day: 'numeric', month, year: 'numeric', timeZone: 'UTC' })),
    );
  return f.format(date);
}

/** A list for people: `a, b and c` / `a, b und c` / `a, b et c` / `a, b y c`. */
export function formatList(items: readonly string[], locale: RenderLocale): string {
  return new Intl.ListFormat(intlLocale(locale), { style: 'long', type: 'conjunction' }).format(items);
}
