import { intlLocale, type RenderLocale } from './locales';

/**
 * Money, dates and counts for people, through `Intl` in the reader's language. Amounts are integer minor units
 * (cents) with their currency as data, as everywhere in this repository; the currency's own number of decimals
 * comes from Intl (JPY has none).
 */

const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: RenderLocale, options: Intl.NumberFormatOptions): Intl.NumberFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let f = numberFormats.get(key);
  if (!f) numberFormats.set(key, (f = new Intl.NumberFormat(intlLocale(locale), options)));
  return f;
}

/** How an amount names its currency: the symbol (`$`), or the ISO code (`USD`) for documents read abroad. */
export interface MoneyStyle {
  readonly code?: boolean;
}

/**
 * `12345, 'USD'` → `$123.45` (en), `123,45 $` (de), `123,45 $US` (fr); with `{ code: true }` → `USD 123.45`,
 * `123,45 USD`.
 */
export function formatMoney(
  minorUnits: number,
  currency: string,
  locale: RenderLocale,
  style: MoneyStyle = {},
): string {
  const code = currency.toUpperCase();
  const f = numberFormat(locale, {
    style: 'currency',
    currency: code,
    currencyDisplay: style.code ? 'code' : 'symbol',
  });
  const digits = f.resolvedOptions().maximumFractionDigits ?? 2;
  return f.format(minorUnits / 10 ** digits);
}

/** A whole amount (the catalog's limits are whole dollars): `250000, 'USD'` → `$250,000` / `250.000 $`. */
export function formatWholeMoney(
  amount: number,
  currency: string,
  locale: RenderLocale,
  style: MoneyStyle = {},
): string {
  return numberFormat(locale, {
    style: 'currency',
    currency: currency.toUpperCase(),
    currencyDisplay: style.code ? 'code' : 'symbol',
    maximumFractionDigits: 0,
    minimumFractionDigits: 0,
  }).format(amount);
}

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
