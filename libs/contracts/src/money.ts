/**
 * Money for people: the one formatter of the platform (servers, documents, mails, MCP texts, the pricing engine's
 * notes, the widget iframe and the portal UI). Integer minor units (cents) in, with the currency as data (the
 * quote's); the locale's `Intl` formatting out. The currency's own number of decimals comes from Intl (JPY has none),
 * so this is the only place that divides an amount by its minor-unit factor for display.
 *
 * Part of the zod-free `@expedition/contracts/rules` entry: no Node API, no DOM, no package.
 */

/** How an amount is written. */
export interface MoneyStyle {
  /** The ISO code instead of the symbol: `USD 1,234.50` / `1.234,50 USD` (documents are read abroad, `$` is ambiguous). */
  readonly code?: boolean;
  /** A whole amount without its zero decimals: `$500,000`, but `$1,234.50` (catalog limits, notes, chart ticks). */
  readonly trimZeroCents?: boolean;
}

const formats = new Map<string, Intl.NumberFormat>();

function numberFormat(locale: string | undefined, currency: string, style: MoneyStyle): Intl.NumberFormat {
  const key = `${locale ?? ''}|${currency}|${style.code ? 'c' : 's'}${style.trimZeroCents ? 't' : ''}`;
  let format = formats.get(key);
  if (!format) {
    const options: Intl.NumberFormatOptions = {
      style: 'currency',
      currency,
      currencyDisplay: style.code ? 'code' : 'symbol',
      ...(style.trimZeroCents ? { trailingZeroDisplay: 'stripIfInteger' } : {}),
    };
    try {
      format = new Intl.NumberFormat(locale, options);
    } catch (err) {
      // A malformed locale tag reads as English; an unknown currency code is the caller's to handle.
      if (!(err instanceof RangeError) || locale === 'en') throw err;
      format = new Intl.NumberFormat('en', options);
    }
    formats.set(key, format);
  }
  return format;
}

/**
 * `123450, 'USD'` → `$1,234.50` (en), `1.234,50 $` (de), `1 234,50 $US` (fr); with `{ code: true }` →
 * `USD 1,234.50` / `1.234,50 USD`. `locale` is a BCP 47 tag (a RenderLocale is one); absent, the runtime's own (a
 * browser's language). A currency Intl does not know is written `1234.50 XYZ`.
 */
export function formatMoney(minorUnits: number, currency: string, locale?: string, style: MoneyStyle = {}): string {
  const code = currency.toUpperCase();
  let format: Intl.NumberFormat;
  try {
    format = numberFormat(locale, code, style);
  } catch {
    return `${(minorUnits / 100).toFixed(2)} ${code}`;
  }
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minorUnits / 10 ** digits);
}
