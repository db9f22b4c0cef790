/**
 * Money for people: integer minor units in, the locale's formatting of the currency out. Amounts are never
 * floating-point anywhere else; this is the only place that divides by the currency's minor-unit factor.
 */
export function formatMoney(minorUnits: number, currency: string, locale?: string): string {
  const code = currency.toUpperCase();
  let digits = 2;
  try {
    digits =
      new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return `${(minorUnits / 100).toFixed(2)} ${code}`;
  }
  const value = minorUnits / 10 ** digits;
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency: code }).format(value);
  } catch {
    return new Intl.NumberFormat('en', { style: 'currency', currency: code }).format(value);
  }
}

/** Whole units (e.g. coverage limits in dollars) without decimals: `$250,000`. */
export function formatWholeAmount(amount: number, currency: string, locale?: string): string {
  try {
    return new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: currency.toUpperCase(),
      maximumFractionDigits: 0,
    }).format(amount);
  } catch {
    return `${Math.round(amount)} ${currency.toUpperCase()}`;
  }
}
