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

/** A format and its currency's number of decimals, asked of Intl once (`resolvedOptions()` costs more than `format`). */
interface MoneyFormat {
  readonly format: Intl.NumberFormat;
  readonly digits: number;
}

const formats = new Map<string, MoneyFormat>();

function moneyFormat(locale: string | undefined, currency: string, style: MoneyStyle): MoneyFormat {
  const key = `${locale ?? ''}|${currency}|${style.code ? 'c' : 's'}${style.trimZeroCents ? 't' : ''}`;
  let cached = formats.get(key);
  if (!cached) {
    const options: Intl.NumberFormatOptions = {
      style: 'currency',
      currency,
      currencyDisplay: style.code ? 'code' : 'symbol',
      ...(style.trimZeroCents ? { trailingZeroDisplay: 'stripIfInteger' } : {}),
    };
    let format: Intl.NumberFormat;
    try {
      format = new Intl.NumberFormat(locale, options);
    } catch (err) {
      // A malformed locale tag reads as English; an unknown currency code is the caller's to handle.
      if (!(err instanceof RangeError) || locale === 'en') throw err;
      format = new Intl.NumberFormat('en', options);
    }
    cached = { format, digits: format.resolvedOptions().maximumFractionDigits ?? 2 };
    formats.set(key, cached);
  }
  return cached;
}

/**
 * `123450, 'USD'` → `$1,234.50` (en), `1.234,50 $` (de), `1 234,50 $US` (fr); with `{ code: true }` →
 * `USD 1,234.50` / `1.234,50 USD`. `locale` is a BCP 47 tag (a RenderLocale is one); absent, the runtime's own (a
 * browser's language). A currency Intl does not know is written `1234.50 XYZ`.
 */
export function formatMoney(minorUnits: number, currency: string, locale?: string, style: MoneyStyle = {}): string {
  const code = currency.toUpperCase();
  let money: MoneyFormat;
  try {
    money = moneyFormat(locale, code, style);
  } catch {
    return `${(minorUnits / 100).toFixed(2)} ${code}`;
  }
  return money.format.format(minorUnits / 10 ** money.digits);
}
