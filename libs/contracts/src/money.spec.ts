import { formatMoney } from './money';

const nbsp = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('formatMoney (integer minor units in the quote currency)', () => {
  it('writes cents in each language', () => {
    expect(nbsp(formatMoney(123450, 'USD', 'en'))).toBe('$1,234.50');
    expect(nbsp(formatMoney(123450, 'USD', 'de'))).toBe('1.234,50 $');
    expect(nbsp(formatMoney(123450, 'USD', 'fr'))).toBe('1 234,50 $US');
    expect(nbsp(formatMoney(123450, 'EUR', 'es'))).toBe('1234,50 €');
    // The pseudo-locale (layout checks) formats as English.
    expect(nbsp(formatMoney(123450, 'USD', 'en-XA'))).toBe('$1,234.50');
  });

  it('writes the currency code when asked (documents read abroad)', () => {
    expect(nbsp(formatMoney(123450, 'usd', 'en', { code: true }))).toBe('USD 1,234.50');
    expect(nbsp(formatMoney(123450, 'USD', 'de', { code: true }))).toBe('1.234,50 USD');
  });

  it('knows a currency without minor units (JPY: the amount is in yen)', () => {
    expect(nbsp(formatMoney(1500, 'JPY', 'en'))).toBe('¥1,500');
  });

  it('writes whole amounts without decimals', () => {
    expect(nbsp(formatMoney(50_000_000, 'USD', 'fr', { code: true, trimZeroCents: true }))).toBe('500 000 USD');
    expect(nbsp(formatMoney(50_000_000, 'USD', 'en', { code: true, trimZeroCents: true }))).toBe('USD 500,000');
  });

  it('never throws for a display: a malformed locale reads as English, an unknown currency as its code', () => {
    expect(formatMoney(123450, 'USD', 'not a locale!')).toBe('$1,234.50');
    expect(formatMoney(123450, 'US$')).toBe('1234.50 US$');
  });
});

describe('formatUsd', () => {
  it('groups thousands and drops zero cents', () => {
    expect(formatMoney(50_000_000, 'USD', 'en-US', { trimZeroCents: true })).toBe('$500,000');
    expect(formatMoney(123_450, 'USD', 'en-US', { trimZeroCents: true })).toBe('$1,234.50');
  });
});
